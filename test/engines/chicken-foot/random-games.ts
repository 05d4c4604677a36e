/** Seeded random games of Chicken Foot with every step checked (tiles, blocks, scores, views), shared by the whole-game specs. */
import { playRandomGame, seededRandom, type ReplayEntry, type Seat } from '../../../src/engines/kit/index.js';
import { buildSet, handValue, isBlocked, type ChickenFootAction, type ChickenFootRuleset, type ChickenFootState } from '../../../src/games/chicken-foot/engine/index.js';
import { engine } from './helpers.js';

/** Every tile is on the table, in a hand or in the yard, exactly once (docs/rules/chicken-foot.md §2.1, I4). */
function expectTilesConserved(state: ChickenFootState): void {
  const round = state.round;
  if (!round) return;
  const everywhere = [...round.table.map((n) => n.tile), ...round.hands.flat(), ...round.yard];
  const set = buildSet(state.ruleset.setMax);
  if (everywhere.length !== set.length || new Set(everywhere).size !== set.length) {
    throw new Error(`tiles not conserved in round ${round.number}: ${everywhere.length} placed of ${set.length}`);
  }
}

/** Finished rounds score the pips left in hands (plus the optional going-out-on-a-double penalty). */
function expectRoundScores(state: ChickenFootState): void {
  let totals = new Array(state.ruleset.players).fill(0);
  for (const round of state.rounds) {
    if (!round.scores) continue;
    const wentOutOnDouble = round.wentOut !== null && round.table[round.table.length - 1].tile.split('-').every((p, _, [a]) => p === a);
    const expected = round.hands.map((hand, seat) => handValue(hand, state.ruleset) + (wentOutOnDouble && seat === round.wentOut ? state.ruleset.lastTileDoublePenalty : 0));
    expect(round.scores).toEqual(expected);
    totals = totals.map((t, seat) => t + round.scores![seat]);
  }
  expect(state.totals).toEqual(totals);
}

/** The JSON of what a seat is served must not name another seat's tiles or a yard tile while the round goes on. */
function expectNoLeak(served: unknown, state: ChickenFootState, seat: Seat): void {
  const round = state.round;
  if (!round) return;
  const text = JSON.stringify(served);
  const named = new Set(Array.from(text.matchAll(/"(\d+-\d+)"/g), (m) => m[1]));
  const secret = [...round.hands.flatMap((hand, s) => (s === seat ? [] : hand)), ...round.yard];
  const leaked = secret.filter((tile) => named.has(tile));
  if (leaked.length > 0) throw new Error(`seat ${seat} was served hidden tiles ${leaked.join(', ')}: ${text}`);
  if (/"(order|shuffle)"/.test(text)) throw new Error(`seat ${seat} was served the yard order or shuffle: ${text}`);
}

/** Plays a seeded random game and checks every step. */
export function checkGame(ruleset: ChickenFootRuleset, seed: number, checkViews: boolean): { state: ChickenFootState; entries: ReplayEntry<ChickenFootAction>[] } {
  let previous = engine.init(ruleset);
  const { state, entries, finished } = playRandomGame(engine, ruleset, seededRandom(seed), 200_000, (after, entry) => {
    expectTilesConserved(after);
    // A draw may exhaust the yard; the block is then detected at the drawer's pass.
    if (after.round && after.round.drawsThisTurn === 0 && ruleset.blockedDetection === 'immediate' && isBlocked(ruleset, after.round)) {
      throw new Error(`round ${after.round.number} is blocked but goes on`);
    }
    if (checkViews) {
      for (let seat = 0; seat < ruleset.players; seat++) {
        const current = { ...(engine.view(after, seat) as object), rounds: [] };
        expectNoLeak(current, after, seat);
        if (entry.kind === 'action') expectNoLeak(engine.actionView!(previous, after, entry.seat, entry.action, seat), after, seat);
        else if (entry.kind === 'chance' && engine.pendingChance(previous)?.hidden) expectNoLeak(engine.chanceView!(previous, after, entry.values, seat), after, seat);
      }
      const spectator = JSON.stringify({ ...(engine.view(after, 'spectator') as object), rounds: [] });
      if (spectator.includes('"hand"')) throw new Error(`a spectator was served a hand: ${spectator}`);
    }
    previous = after;
  });
  expect(finished).toBe(true);
  expectRoundScores(state);
  return { state, entries };
}
