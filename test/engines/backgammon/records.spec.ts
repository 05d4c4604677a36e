import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { replay } from '../../../src/engines/kit/index.js';
import { backgammonEngine, exportRecord, importRecord } from '../../../src/games/backgammon/engine/index.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/backgammon');
const expected = JSON.parse(readFileSync(join(fixtures, 'expected.json'), 'utf8')) as Record<string, { matchLength: number; games: number; players: string[]; finalScore: number[]; winner: string }>;

describe('GNU Backgammon .mat records', () => {
  for (const [file, want] of Object.entries(expected)) {
    it(`${file} imports and replays to ${want.winner} winning ${want.finalScore.join('-')}`, () => {
      const text = readFileSync(join(fixtures, file), 'utf8');
      const imported = importRecord(text);
      if (!imported.ok) throw new Error(imported.error.message);
      const { entries, seatNames, labels } = imported.value;
      expect(seatNames).toEqual(want.players);
      expect(labels).toHaveLength(entries.length);
      const ruleset = backgammonEngine.parseRuleset(imported.value.ruleset);
      if (!ruleset.ok) throw new Error(ruleset.error.message);
      const result = replay(backgammonEngine, ruleset.value, entries);
      if (!result.ok) throw new Error(`${labels![result.failure.index]}: ${result.failure.error.message}`);
      const outcome = backgammonEngine.outcome(result.state);
      expect(outcome).not.toBeNull();
      expect(outcome!.points).toEqual(want.finalScore);
      expect(outcome!.winners).toEqual([want.players.indexOf(want.winner)]);
      expect(result.state.games).toHaveLength(want.games);
      expect(result.state.ruleset.matchLength).toBe(want.matchLength);

      // Exporting the imported match writes gnubg's text again (the header's metadata aside).
      const exported = exportRecord(ruleset.value, entries, seatNames!);
      const body = (t: string) => t.slice(t.indexOf(' Game 1'));
      expect(body(exported)).toBe(body(text));
    });
  }
});
