/** Game records (arbiter-chicken-foot/1) and organizer deals. */
import { readFileSync } from 'node:fs';
import { Codes, playRandomGame, replay, seededRandom } from '../../../src/engines/kit/index.js';
import { buildSet, dealValues, RECORD_FORMAT } from '../../../src/games/chicken-foot/engine/index.js';
import { compareTiles } from '../../../src/games/chicken-foot/engine/tiles.js';
import { accepted, engine, round, rules } from './helpers.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/chicken-foot/${name}`, import.meta.url), 'utf8');

function importRefusal(text: string): string {
  const imported = engine.importRecord!(text);
  if (imported.ok) throw new Error('expected the record to be refused');
  expect(imported.error.code).toBe(Codes.INVALID_INPUT);
  return imported.error.message;
}

describe('Chicken Foot game records', () => {
  it.each([
    ['classic-3-players.json', ['Ada', 'Ben', 'Cleo'], [338, 360, 300], [2]],
    ['malta-cross-4-players.json', ['North', 'East', 'South', 'West'], [350, 452, 347, 270], [3]],
  ])('%s replays to the whole recorded game and its winner', (file, seats, points, winners) => {
    const imported = accepted(engine.importRecord!(fixture(file)));
    expect(imported.seatNames).toEqual(seats);
    expect(imported.labels).toHaveLength(imported.entries.length);
    const ruleset = accepted(engine.parseRuleset(imported.ruleset));
    const replayed = replay(engine, ruleset, imported.entries);
    if (!replayed.ok) throw new Error(`${imported.labels![replayed.failure.index]}: ${replayed.failure.error.message}`);
    expect(engine.outcome(replayed.state)).toMatchObject({ winners, points });
    // Exporting the imported game gives the same text back.
    expect(engine.exportRecord!(ruleset, imported.entries, seats)).toBe(fixture(file));
  });

  it('export then import gives back the same entries, for a game in progress too', () => {
    const ruleset = rules({ preset: 'malta-cross', players: 5 });
    const { entries } = playRandomGame(engine, ruleset, seededRandom(11), 300);
    const text = engine.exportRecord!(ruleset, entries, ['a', 'b', 'c', 'd', 'e']);
    expect(engine.recordContentType).toBe('application/json');
    expect(JSON.parse(text).format).toBe(RECORD_FORMAT);
    const imported = accepted(engine.importRecord!(text));
    expect(imported.entries).toEqual(entries);
    expect(imported.labels![1]).toBe('round 1 shuffle');
    expect(imported.labels![2]).toBe('round 1, action 1');
  });

  it('refuses malformed records, saying where they are wrong', () => {
    const good = JSON.parse(fixture('classic-3-players.json'));
    const withChange = (change: (r: any) => void) => {
      const copy = JSON.parse(JSON.stringify(good));
      change(copy);
      return JSON.stringify(copy);
    };
    expect(importRefusal('{"format": ')).toMatch(/not JSON/);
    expect(importRefusal('[]')).toMatch(/must be a JSON object/);
    expect(importRefusal(withChange((r) => (r.format = 'chicken/2')))).toMatch(/format must be "arbiter-chicken-foot\/1"/);
    expect(importRefusal(withChange((r) => (r.extra = 1)))).toMatch(/unknown field "extra"/);
    expect(importRefusal(withChange((r) => (r.ruleset.players = 9)))).toMatch(/ruleset: .*players must be between 2 and 8/);
    expect(importRefusal(withChange((r) => r.seats.pop()))).toMatch(/seats must list 3 seat names/);
    expect(importRefusal(withChange((r) => delete r.firstDealerDraw))).toMatch(/firstDealerDraw .*expected 1 values, got none/);
    expect(importRefusal(withChange((r) => (r.rounds[1].round = 7)))).toMatch(/round 2 is numbered 7/);
    expect(importRefusal(withChange((r) => (r.rounds[0].shuffle[3] = 99)))).toMatch(/round 1 shuffle: value 3 \(99\) is outside \[0, 52\)/);
    expect(importRefusal(withChange((r) => r.rounds[0].shuffle.pop()))).toMatch(/round 1 shuffle: expected 54 values, got 53/);
    expect(importRefusal(withChange((r) => (r.rounds[2].actions[4].seat = 3)))).toMatch(/round 3, action 5: seat must be 0 to 2/);
    expect(importRefusal(withChange((r) => (r.rounds[2].actions[4].type = 'knock')))).toMatch(/round 3, action 5: action type must be/);
  });

  it('a record whose moves break the rules imports, and replay names the first illegal entry', () => {
    const good = JSON.parse(fixture('classic-3-players.json'));
    const firstPlay = good.rounds[0].actions.findIndex((a: { type: string }) => a.type === 'play');
    good.rounds[0].actions[firstPlay].target = '0-9';
    const imported = accepted(engine.importRecord!(JSON.stringify(good)));
    const replayed = replay(engine, accepted(engine.parseRuleset(imported.ruleset)), imported.entries);
    expect(replayed.ok).toBe(false);
    if (!replayed.ok) {
      expect(imported.labels![replayed.failure.index]).toBe(`round 1, action ${firstPlay + 1}`);
      expect(replayed.failure.error.code).toBe('TARGET_NOT_OPEN');
    }
  });
});

describe('organizer deals', () => {
  const classic = rules({ players: 3, firstDealer: 0 });
  const set = buildSet(9).filter((t) => t !== '9-9');
  const hands = [set.slice(0, 14), set.slice(14, 28), set.slice(28, 42)];
  const yard = set.slice(42);

  it('turns a classic deal (hands, yard order, dealer and finder) into the values that produce it', () => {
    for (const finder of [0, 1, 2]) {
      const values = accepted(dealValues(classic, { hands, yard, dealer: 0, finder, round: 1 }));
      const state = accepted(engine.resolveChance(engine.init(classic), values));
      expect(round(state).hands).toEqual(hands.map((h) => h.slice().sort(compareTiles)));
      expect(round(state).yard).toEqual(yard);
      expect(round(state).starter).toBe(finder);
      expect(round(state).turn).toBe(finder);
    }
  });

  it('turns a malta-cross deal into values; the holder of 9-9 places it', () => {
    const malta = rules({ preset: 'malta-cross', players: 3, firstDealer: 0 });
    const all = buildSet(9);
    const dealt = [all.slice(0, 7), all.slice(7, 14), ['9-9', ...all.slice(14, 20)]];
    const state = accepted(engine.resolveChance(engine.init(malta), accepted(dealValues(malta, { hands: dealt, yard: all.slice(20, 54) }))));
    expect(round(state).starter).toBe(2);
    expect(round(state).turn).toBe(0);
    expect(round(state).yard).toEqual(all.slice(20, 54));
  });

  it.each([
    [{ hands: hands.slice(0, 2), yard, dealer: 0, finder: 0, round: 1 }, /hands must list 3 hands/],
    [{ hands: [hands[0].slice(1), hands[1], hands[2]], yard, dealer: 0, finder: 0, round: 1 }, /hand 0 has 13 tiles, not 14/],
    [{ hands: [hands[0], hands[1], [...hands[2].slice(1), hands[0][0]]], yard, dealer: 0, finder: 0, round: 1 }, /is dealt twice/],
    [{ hands, yard: yard.slice(1), dealer: 0, finder: 0, round: 1 }, /the yard must hold 12 tiles, not 11/],
    [{ hands, yard: [...yard.slice(1), '9-10'], dealer: 0, finder: 0, round: 1 }, /"9-10", which is not a tile of a double-9 set/],
    [{ hands, yard: [...yard.slice(1), '9-9'], dealer: 0, finder: 0, round: 1 }, /round 1 starts with 9-9, set aside before the deal: it must be the one tile missing/],
    // Round 2 starts with 8-8: a deal that sets 9-9 aside again would come out differently.
    [{ hands, yard, dealer: 1, finder: 0, round: 2 }, /round 2 starts with 8-8.*missing: 9-9/],
    [{ hands, yard, dealer: 0, finder: 0 }, /round must be the round number/],
    [{ hands, yard, dealer: 0, round: 1 }, /finder must be a seat from 0 to 2/],
    [{ hands, yard, dealer: 0, finder: 0, round: 1, extra: 1 }, /unknown field "extra"/],
  ])('refuses an impossible deal %#', (deal, message) => {
    const result = dealValues(classic, deal as never);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe(Codes.INVALID_INPUT);
      expect(result.error.message).toMatch(message);
    }
  });
});
