/** What seats and spectators are shown: hands stay private while a round goes on, and everything is revealed after it. */
import { applyShuffle, playRandomGame, seededRandom } from '../../../src/engines/kit/index.js';
import { buildSet, type ChickenFootState, type ChickenFootView } from '../../../src/games/chicken-foot/engine/index.js';
import { accepted, DRAW, engine, play, position, round, rules } from './helpers.js';

const viewOf = (s: ChickenFootState, viewer: number | 'spectator') => engine.view(s, viewer) as ChickenFootView;

/** A classic 4-player game after `steps` random entries. */
function midGame(steps: number): ChickenFootState {
  return playRandomGame(engine, rules({ players: 4 }), seededRandom(8), steps).state;
}

describe('Chicken Foot views', () => {
  it("a seat sees its own hand, the others' counts, the table tree with its targets, the yard size, totals and the turn", () => {
    const s = position({
      ruleset: { players: 4 },
      hub: 9,
      arms: ['9-5 · [5-5]{5-1}', '9-2', '9-7', '9-0'],
      hands: [['1-1', '3-4'], ['5-6'], ['2-2'], ['0-0', '3-3', '4-4']],
      yardSize: 6,
      turn: 1,
      totals: [10, 20, 30, 40],
    });
    const v = viewOf(s, 1);
    expect(v.status).toBe('playing');
    expect(v.totals).toEqual([10, 20, 30, 40]);
    expect(v.toAct).toEqual([1]);
    expect(v.round).toMatchObject({
      phase: 'FOOT_OPEN',
      targets: ['5-5'],
      yardSize: 6,
      drawable: 5,
      handSizes: [2, 1, 1, 3],
      turn: 1,
      hand: ['5-6'],
      openFoot: { tile: '5-5', toes: 1, needed: 3 },
      hub: { tile: '9-9', arms: 4, requiredArms: 4, capacity: 4 },
      legalActions: [play('5-6', '5-5')],
    });
    expect(v.round!.table).toMatchObject({ tile: '9-9', kind: 'hub', value: 9, open: false });
    expect(v.round!.table.children[0]).toMatchObject({ tile: '5-9', kind: 'line', value: 5, children: [{ tile: '5-5', kind: 'foot', open: true, children: [{ tile: '1-5', value: 1 }] }] });
    expect(viewOf(s, 0).round).not.toHaveProperty('legalActions');
    expect(viewOf(s, 0).round!.hand).toEqual(['1-1', '3-4']);
    expect(viewOf(s, 'spectator').round).not.toHaveProperty('hand');
  });

  it('after a round ends, its shuffle values, the order they produced, and every hand of that round are public', () => {
    const ruleset = rules({ players: 3 });
    let firstRoundOver: ChickenFootState | null = null;
    playRandomGame(engine, ruleset, seededRandom(21), 100_000, (s) => {
      if (!firstRoundOver && s.rounds.length === 1) firstRoundOver = s;
    });
    const spectator = viewOf(firstRoundOver!, 'spectator');
    expect(spectator.status).toBe('dealing');
    const revealed = spectator.rounds[0];
    expect(applyShuffle(buildSet(9), revealed.shuffle)).toEqual(revealed.order);
    // Classic: the hub is taken out of the order, the rest dealt seat by seat, then the yard.
    const rest = revealed.order.filter((t) => t !== '9-9');
    expect(revealed.dealtHands.flat().sort()).toEqual(rest.slice(0, 42).sort());
    expect(revealed.starter).toBe((revealed.dealer + 1 + revealed.order.indexOf('9-9')) % 3);
    expect(revealed.handsLeft).toHaveLength(3);
    expect(revealed.scores).toEqual(firstRoundOver!.rounds[0].scores);
  });

  it('the deal shows each seat its own hand and spectators only counts', () => {
    const ruleset = rules({ players: 4, firstDealer: 0 });
    const before = engine.init(ruleset);
    const values = engine.pendingChance(before)!.ranges.map(seededRandom(4));
    const after = accepted(engine.resolveChance(before, values));
    const seen = engine.chanceView!(before, after, values, 2) as Record<string, unknown>;
    expect(seen).toMatchObject({ label: 'TilesShuffled', round: 1, startDouble: '9-9', dealer: 0, handSizes: [11, 11, 11, 11], yardSize: 10, hand: round(after).hands[2] });
    expect(engine.chanceView!(before, after, values, 'spectator')).not.toHaveProperty('hand');
    expect(JSON.stringify(seen)).not.toContain(JSON.stringify(values));
  });

  it('a draw shows the drawer the tile and everyone else only that a tile was drawn', () => {
    const before = position({ ruleset: { players: 3 }, hub: 9, arms: ['9-5', '9-2', '9-7'], hands: [['1-1'], ['3-3', '6-4'], ['2-2']], yardTop: ['4-4', '0-1'], turn: 1 });
    const after = accepted(engine.apply(before, 1, DRAW));
    expect(engine.actionView!(before, after, 1, DRAW, 1)).toEqual({ seat: 1, type: 'draw', tile: '4-4' });
    expect(engine.actionView!(before, after, 1, DRAW, 0)).toEqual({ seat: 1, type: 'draw' });
    expect(engine.actionView!(before, after, 1, DRAW, 'spectator')).toEqual({ seat: 1, type: 'draw' });
  });

  it('a double is announced as a chicken foot, and the play that ends a round carries the round result', () => {
    const before = position({ ruleset: { players: 2 }, hub: 9, arms: ['9-3', '9-6'], hands: [['3-3'], ['1-1']], yardSize: 5, turn: 0 });
    const after = accepted(engine.apply(before, 0, play('3-3', '3-9')));
    expect(engine.actionView!(before, after, 0, play('3-3', '3-9'), 'spectator')).toEqual({
      seat: 0,
      type: 'play',
      tile: '3-3',
      target: '3-9',
      chickenFoot: true,
      roundEnded: { number: 1, end: 'domino', wentOut: 0, scores: [0, 2] },
    });
  });

  it('refusals never name a tile hidden from the player', () => {
    const state = midGame(40);
    const r = round(state);
    const seat = r.turn;
    const secret = new Set([...r.hands.flatMap((h, s) => (s === seat ? [] : h)), ...r.yard]);
    const names = ['hub', ...buildSet(9)];
    for (const tile of buildSet(9)) {
      for (const target of names) {
        const result = engine.apply(state, seat, { type: 'play', tile, target });
        if (result.ok) continue;
        const named = (result.error.message.match(/\d+-\d+/g) ?? []).filter((t) => t !== tile && t !== target);
        expect(named.filter((t) => secret.has(t))).toEqual([]);
      }
    }
    for (const action of [DRAW, { type: 'pass' as const }]) {
      const result = engine.apply(state, seat, action);
      if (!result.ok) expect((result.error.message.match(/\d+-\d+/g) ?? []).filter((t) => secret.has(t))).toEqual([]);
    }
  });
});
