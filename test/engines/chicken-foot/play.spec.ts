/** Rules beyond the vectors: resigning, acting out of turn or between rounds, house options, how winners are announced. */
import { Codes, playRandomGame, seededRandom } from '../../../src/engines/kit/index.js';
import { buildSet, dealValues } from '../../../src/games/chicken-foot/engine/index.js';
import { accepted, DRAW, engine, lastRound, PASS, play, playAll, position, refusedWith, round, rules } from './helpers.js';

describe('Chicken Foot turns and rounds', () => {
  it('nobody may act while the tiles are being shuffled; values must answer the request', () => {
    const state = engine.init(rules({ players: 3 }));
    expect(engine.pendingChance(state)).toEqual({ label: 'FirstDealerDrawn', ranges: [3] });
    expect(engine.toAct(state)).toEqual([]);
    refusedWith(engine.apply(state, 0, DRAW), 'ROUND_OVER');
    refusedWith(engine.resolveChance(state, [3]), Codes.INVALID_INPUT);
    const dealing = accepted(engine.resolveChance(state, [1]));
    expect(dealing.firstDealer).toBe(1);
    expect(engine.pendingChance(dealing)).toEqual({
      label: 'TilesShuffled',
      ranges: buildSet(9)
        .map((_, i) => 55 - i)
        .slice(0, 54),
      hidden: true,
    });
    refusedWith(engine.resolveChance(dealing, [1, 2]), Codes.INVALID_INPUT);
  });

  it('the hub may be named "hub" or by its tile; an unknown target is refused', () => {
    const s = position({ ruleset: { players: 2 }, hub: 9, hands: [['9-1', '2-2'], ['3-3']], yardSize: 5, turn: 0 });
    expect(round(accepted(engine.apply(s, 0, play('9-1', '9-9')))).table[0].children).toHaveLength(1);
    expect(refusedWith(engine.apply(s, 0, play('9-1', '5-6')), 'TARGET_NOT_OPEN')).toMatch(/5-6 is not on the table/);
  });

  it('a resignation ends the whole game: the round in play is abandoned unscored and the others rank by their totals', () => {
    const s = position({ ruleset: { players: 3 }, hub: 9, hands: [['9-1'], ['3-3'], ['4-4']], yardSize: 5, turn: 0, totals: [50, 20, 30] });
    const over = accepted(engine.resign(s, 1));
    expect(lastRound(over)).toMatchObject({ end: 'abandoned', scores: null });
    expect(over.totals).toEqual([50, 20, 30]);
    expect(engine.outcome(over)).toMatchObject({ winners: [2], points: [50, 20, 30], summary: 'seat 1 resigned; seat 2 wins with 30 points' });
    refusedWith(engine.apply(over, 0, play('9-1', 'hub')), Codes.GAME_OVER);
    refusedWith(engine.resign(over, 0), Codes.GAME_OVER);
    expect(engine.toAct(over)).toEqual([]);
    refusedWith(engine.resign(s, 5), Codes.INVALID_INPUT);
  });

  it('a finished game names its winners, totals and round scores', () => {
    const { state } = playRandomGame(engine, rules({ players: 4 }), seededRandom(31));
    const outcome = engine.outcome(state)!;
    expect(outcome.points).toEqual(state.totals);
    expect(Math.min(...state.totals)).toBe(state.totals[outcome.winners[0]]);
    expect(outcome.details).toMatchObject({ reason: 'completed', resigned: null, roundsPlayed: 10, totals: state.totals });
    expect(outcome.summary).toMatch(/^seat \d (wins|and seat \d+ win) with \d+ points/);
    refusedWith(engine.apply(state, 0, PASS), Codes.GAME_OVER);
  });

  it('malta-cross with firstToAct "placer": the seat that placed the hub also makes the first arm', () => {
    const r = rules({ preset: 'malta-cross', players: 3, firstDealer: 0, firstToAct: 'placer' });
    const all = buildSet(9);
    const state = accepted(engine.resolveChance(engine.init(r), accepted(dealValues(r, { hands: [all.slice(0, 7), ['9-9', ...all.slice(7, 13)], all.slice(13, 20)], yard: all.slice(20, 54) }))));
    expect(round(state).starter).toBe(1);
    expect(round(state).turn).toBe(1);
  });

  it('passCycle lets a malta-cross round end while a seat still keeps a drawn tile that fits; immediate does not', () => {
    const at = (blockedDetection: string) =>
      position({
        ruleset: { preset: 'malta-cross', players: 2, blockedDetection },
        hub: 9,
        arms: ['9-3', '9-6', '9-1', '9-2'],
        hands: [
          ['0-0', '4-4'],
          ['5-5', '0-8'],
        ],
        yardTop: ['3-4'],
        turn: 0,
      });
    const cycle = playAll(at('passCycle'), [
      [0, DRAW],
      [0, PASS],
    ]);
    const ended = accepted(engine.apply(cycle, 1, PASS));
    expect(lastRound(ended)).toMatchObject({ end: 'blocked' });
    const immediate = playAll(at('immediate'), [
      [0, DRAW],
      [0, PASS],
      [1, PASS],
    ]);
    expect(immediate.round).not.toBeNull();
    expect(engine.legalActions(immediate, 0)).toEqual([play('3-4', '3-9')]);
  });

  it('lastTileCall: leaving one tile without announcing it draws the penalty; announcing avoids it', () => {
    const s = position({ ruleset: { players: 2, lastTileCall: { enabled: true, penaltyDraws: 2 } }, hub: 9, arms: ['9-3', '9-6'], hands: [['3-5', '1-1'], ['2-2']], yardSize: 6, turn: 0 });
    expect(engine.legalActions(s, 0)).toEqual([{ type: 'play', tile: '3-5', target: '3-9', announce: true }]);
    const silent = accepted(engine.apply(s, 0, play('3-5', '3-9')));
    expect(round(silent).hands[0]).toHaveLength(3);
    expect(round(silent).yard).toHaveLength(4);
    const seen = engine.actionView!(s, silent, 0, play('3-5', '3-9'), 1) as Record<string, unknown>;
    expect(seen.penaltyDraws).toBe(2);
    expect(seen).not.toHaveProperty('penaltyTiles');
    expect((engine.actionView!(s, silent, 0, play('3-5', '3-9'), 0) as { penaltyTiles: string[] }).penaltyTiles).toHaveLength(2);
    const called = accepted(engine.apply(s, 0, { type: 'play', tile: '3-5', target: '3-9', announce: true }));
    expect(round(called).hands[0]).toEqual(['1-1']);
  });

  it('a degenerate deal that is blocked from the start ends the round at once, scored as blocked', () => {
    // Double-6 with 7 tiles kept in reserve: every 6 is in the undrawable yard, so nobody can ever open.
    const r = rules({ players: 2, setMax: 6, handSize: 10, yardReserve: 7, firstDealer: 1 });
    const withoutSix = buildSet(5);
    const sixes = buildSet(6).filter((t) => t.endsWith('-6') && t !== '6-6');
    const deal = { hands: [withoutSix.slice(0, 10), withoutSix.slice(10, 20)], yard: [...sixes, withoutSix[20]], dealer: 1, finder: 0, round: 1 };
    const state = accepted(engine.resolveChance(engine.init(r), accepted(dealValues(r, deal))));
    expect(state.round).toBeNull();
    expect(lastRound(state)).toMatchObject({ end: 'blocked', startDouble: 6 });
    expect(lastRound(state).scores).toEqual(
      deal.hands.map((h) =>
        h.reduce(
          (sum, t) =>
            sum +
            t
              .split('-')
              .map(Number)
              .reduce((a, b) => a + b),
          0,
        ),
      ),
    );
    expect(engine.pendingChance(state)?.label).toBe('TilesShuffled');
  });
});
