/** Worked cases of docs/rules/chicken-foot.md, one test each, named by group: S setup, O opening, F foot, D drawing, B blocked, R scoring, G game end. */
import { Codes, drawsForOrder, playRandomGame, seededRandom } from '../../../src/engines/kit/index.js';
import {
  boardPhase,
  buildSet,
  checkSet,
  dealValues,
  handValue,
  pendingDeal,
  rankWinners,
  rulesetWarnings,
  setPips,
  setSize,
  tileValue,
  yardAfterDeal,
  type ChickenFootRuleset,
  type ChickenFootState,
} from '../../../src/games/chicken-foot/engine/index.js';
import type { RoundView } from '../../../src/games/chicken-foot/engine/views.js';
import { accepted, DRAW, engine, hubArms, lastRound, PASS, play, playAll, position, refusedWith, round, rules, type Position } from './helpers.js';

const C = {
  ROUND_OVER: 'ROUND_OVER',
  NOT_YOUR_TURN: Codes.NOT_YOUR_TURN,
  TILE_NOT_IN_HAND: 'TILE_NOT_IN_HAND',
  TARGET_NOT_OPEN: 'TARGET_NOT_OPEN',
  NO_MATCH: 'NO_MATCH',
  MUST_PLAY: 'MUST_PLAY',
  MUST_DRAW: 'MUST_DRAW',
  CANNOT_DRAW: 'CANNOT_DRAW',
  MUST_PLAY_DRAWN: 'MUST_PLAY_DRAWN',
};

const phase = (s: ChickenFootState) => boardPhase(round(s).table, s.ruleset);
const roundView = (s: ChickenFootState, seat: number) => (engine.view(s, seat) as { round: RoundView }).round;
const targetsOf = (s: ChickenFootState) => roundView(s, 0).targets;
const handOf = (s: ChickenFootState, seat: number) => round(s).hands[seat];

/** Shared board B: classic, 4 players, R = 1, OPEN. */
const BOARD_B = ['9-5', '9-2 · 2-8', '9-7', '9-0'];
const boardB = (over: Partial<Position> & Pick<Position, 'hands' | 'turn'>): ChickenFootState => position({ ruleset: { preset: 'classic', players: 4 }, hub: 9, arms: BOARD_B, yardSize: 6, ...over });

/** Plays seeded random games until the state waits to deal the given round. */
function reachDeal(ruleset: ChickenFootRuleset, roundNumber: number): ChickenFootState {
  let state = engine.init(ruleset);
  const rand = seededRandom(99);
  while (!(state.awaiting === 'shuffle' && state.rounds.length === roundNumber - 1)) {
    const pending = engine.pendingChance(state);
    if (pending) state = accepted(engine.resolveChance(state, pending.ranges.map(rand)));
    else {
      const seat = engine.toAct(state)[0];
      const actions = engine.legalActions(state, seat);
      state = accepted(engine.apply(state, seat, actions[rand(actions.length)]));
    }
  }
  return state;
}

describe('S: equipment, setup, start of a round', () => {
  it('S1: set sizes and pips follow T(N) and N(N+1)(N+2)/2; a duplicate 0-0 or a 90-tile double-12 fails the check', () => {
    const table: [number, number, number][] = [
      [6, 28, 168],
      [9, 55, 495],
      [12, 91, 1092],
      [15, 136, 2040],
      [18, 190, 3420],
    ];
    for (const [n, tiles, total] of table) {
      expect(setSize(n)).toBe(tiles);
      expect(setPips(n)).toBe(total);
      const set = buildSet(n);
      expect(checkSet(set, n)).toBeNull();
      expect(set.reduce((sum, tile) => sum + tileValue(tile, { doubleBlankValue: 0, blankEndValue: null }), 0)).toBe(total);
    }
    const withSecondBlank = [...buildSet(9).slice(0, 54), '0-0'];
    expect(checkSet(withSecondBlank, 9)).toMatch(/0-0 appears twice/);
    expect(checkSet(buildSet(12).slice(1), 12)).toMatch(/91 tiles, not 90/);
  });

  it('S2: classic deals from 54 tiles: hand, yard, reserve and drawable tiles by player count', () => {
    const rows = [
      [2, 21, 12, 2, 10],
      [3, 14, 12, 1, 11],
      [4, 11, 10, 1, 9],
      [5, 8, 14, 1, 13],
      [6, 7, 12, 1, 11],
      [7, 6, 12, 1, 11],
      [8, 5, 14, 1, 13],
    ];
    for (const [players, hand, yard, reserve, drawable] of rows) {
      const r = rules({ players });
      expect([r.handSize, yardAfterDeal(r), r.yardReserve, yardAfterDeal(r) - r.yardReserve]).toEqual([hand, yard, reserve, drawable]);
      const dealt = accepted(
        engine.resolveChance(
          { ...engine.init({ ...r, firstDealer: 0 }), firstDealer: 0, awaiting: 'shuffle' },
          engine.pendingChance({ ...engine.init(r), awaiting: 'shuffle' })!.ranges.map(() => 0),
        ),
      );
      expect(round(dealt).hands.map((h) => h.length)).toEqual(new Array(players).fill(hand));
      expect(round(dealt).yard).toHaveLength(yard);
    }
  });

  it('S3: malta-cross refuses 8 players x 7 tiles on double-9, accepts double-12, warns about a 6-tile boneyard', () => {
    const refused = engine.parseRuleset({ preset: 'malta-cross', players: 8 });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.code).toBe(Codes.INVALID_INPUT);
      expect(refused.error.message).toMatch(/need 56 tiles.*double-9 set \(55 tiles\)/);
    }
    const big = rules({ preset: 'malta-cross', players: 8, setMax: 12 });
    expect(yardAfterDeal(big)).toBe(35);
    expect(rulesetWarnings(big)).toEqual([]);
    const seven = rules({ preset: 'malta-cross', players: 7 });
    expect(yardAfterDeal(seven)).toBe(6);
    expect(rulesetWarnings(seven)[0]).toMatch(/only 6 tiles/);
  });

  it('S4: a double-9 game opens rounds on 9 down to 0 and is not over after the 1-1 round; double-12 has 13 rounds', () => {
    for (const [input, count] of [
      [{ players: 4 }, 10],
      [{ preset: 'malta-cross', players: 4, setMax: 12 }, 13],
    ] as const) {
      const r = rules(input);
      let overAfterOneOne: boolean | null = null;
      const { state } = playRandomGame(engine, r, seededRandom(5), 100_000, (s) => {
        if (s.rounds.length === count - 1 && overAfterOneOne === null) overAfterOneOne = engine.outcome(s) !== null;
      });
      expect(state.rounds.map((x) => x.startDouble)).toEqual(Array.from({ length: count }, (_, i) => count - 1 - i));
      expect(overAfterOneOne).toBe(false);
      expect(engine.outcome(state)).not.toBeNull();
    }
  });

  it('S5: classic round 2 with first dealer S0: the search from S2 turns up 8-8 on S0, who opens; 11 tiles each, yard 10', () => {
    const state = reachDeal(rules({ players: 4, firstDealer: 0 }), 2);
    expect(pendingDeal(state)).toEqual({ round: 2, startDouble: '8-8', dealer: 1 });
    const rest = buildSet(9).filter((x) => !['3-5', '0-7', '8-8'].includes(x));
    const values = drawsForOrder(buildSet(9), ['3-5', '0-7', '8-8', ...rest]);
    const dealt = accepted(engine.resolveChance(state, values));
    const r = round(dealt);
    expect(r.dealer).toBe(1);
    expect(r.searchStart).toBe(2);
    expect(r.starter).toBe(0);
    expect(r.table[0].tile).toBe('8-8');
    expect(r.hands.map((h) => h.length)).toEqual([11, 11, 11, 11]);
    expect(r.yard).toHaveLength(10);
    expect(r.turn).toBe(0);
    expect(r.drawsThisTurn).toBe(0);
    expect(phase(dealt)).toBe('OPENING');
    expect(hubArms(dealt)).toBe(0);
    // An organizer's deal of the same round reproduces the same hands, yard and finder.
    const again = accepted(engine.resolveChance(state, accepted(dealValues(state.ruleset, { hands: r.hands, yard: r.yard, dealer: 1, finder: 0, round: 2 }))));
    expect(round(again).hands).toEqual(r.hands);
    expect(round(again).yard).toEqual(r.yard);
    expect(round(again).starter).toBe(0);
  });

  it('S6: malta-cross round 3 (7-7) that nobody holds: S3, S0 draw and keep, S1 draws 7-7 and places it; S2 acts', () => {
    const state = reachDeal(rules({ preset: 'malta-cross', players: 4, firstDealer: 0 }), 3);
    expect(pendingDeal(state)).toEqual({ round: 3, startDouble: '7-7', dealer: 2 });
    const others = buildSet(9).filter((x) => !['2-2', '1-5', '7-7'].includes(x));
    const hands = [others.slice(0, 7), others.slice(7, 14), others.slice(14, 21), others.slice(21, 28)];
    const yard = ['2-2', '1-5', '7-7', ...others.slice(28)];
    const dealt = accepted(engine.resolveChance(state, accepted(dealValues(state.ruleset, { hands, yard }))));
    const r = round(dealt);
    expect(r.searchDraws).toEqual([1, 1, 0, 1]);
    expect(r.hands[3]).toContain('2-2');
    expect(r.hands[0]).toContain('1-5');
    expect(r.starter).toBe(1);
    expect(r.table[0].tile).toBe('7-7');
    expect(r.turn).toBe(2);
    expect(phase(dealt)).toBe('OPENING');
    expect(r.hands.map((h) => h.length)).toEqual([8, 7, 7, 8]);
    expect(r.yard).toHaveLength(24);
  });

  it('S7: malta-cross round 1: S2 was dealt 9-9 and places it (6 tiles left); S3 acts; S2 may not play next', () => {
    const r = rules({ preset: 'malta-cross', players: 4, firstDealer: 0 });
    const others = buildSet(9).filter((x) => x !== '9-9' && x !== '3-9');
    const hands = [others.slice(0, 7), others.slice(7, 14), ['9-9', '3-9', ...others.slice(14, 19)], others.slice(19, 26)];
    const state = accepted(engine.resolveChance(engine.init(r), accepted(dealValues(r, { hands, yard: others.slice(26) }))));
    expect(round(state).starter).toBe(2);
    expect(handOf(state, 2)).toHaveLength(6);
    expect(round(state).turn).toBe(3);
    expect(round(state).yard).toHaveLength(27);
    refusedWith(engine.apply(state, 2, play('9-3', 'hub')), C.NOT_YOUR_TURN);
  });

  it('S8: burn: nobody holds 9-9 or 8-8, S1 holds 7-7 and places it; the next round is scheduled on 6-6', () => {
    const r = rules({ preset: 'malta-cross', players: 4, firstDealer: 0, missingStartDouble: 'burn' });
    const others = buildSet(9).filter((x) => !['9-9', '8-8', '7-7'].includes(x));
    const hands = [others.slice(0, 7), ['7-7', ...others.slice(7, 13)], others.slice(13, 20), others.slice(20, 27)];
    let state = accepted(engine.resolveChance(engine.init(r), accepted(dealValues(r, { hands, yard: ['9-9', '8-8', ...others.slice(27)] }))));
    expect(round(state).starter).toBe(1);
    expect(round(state).table[0].tile).toBe('7-7');
    expect(round(state).turn).toBe(2);
    const rand = seededRandom(3);
    while (state.round) {
      const actions = engine.legalActions(state, state.round.turn);
      state = accepted(engine.apply(state, state.round.turn, actions[rand(actions.length)]));
    }
    expect(pendingDeal(state)?.startDouble).toBe('6-6');
  });

  it('S8: burn never skips 0-0: when nobody holds it, seats draw until it is found, and the game ends after that round', () => {
    const r = rules({ preset: 'malta-cross', players: 4, firstDealer: 0, missingStartDouble: 'burn' });
    const others = buildSet(9).filter((x) => x !== '0-0');
    const atZero: ChickenFootState = { ...engine.init(r), firstDealer: 0, scheduledDouble: 0 };
    let state = accepted(
      engine.resolveChance(atZero, accepted(dealValues(r, { hands: [0, 1, 2, 3].map((s) => others.slice(s * 7, s * 7 + 7)), yard: [...others.slice(28, 30), '0-0', ...others.slice(30)] }))),
    );
    expect(round(state).table[0].tile).toBe('0-0');
    expect(round(state).searchDraws.reduce((a, b) => a + b)).toBe(3);
    const rand = seededRandom(4);
    while (state.round) {
      const actions = engine.legalActions(state, state.round.turn);
      state = accepted(engine.apply(state, state.round.turn, actions[rand(actions.length)]));
    }
    expect(engine.outcome(state)).not.toBeNull();
  });
});

describe('O: the opening phase ("first turn")', () => {
  const base = (hand: string[], yardTop: string[] = []) => position({ ruleset: { players: 4 }, hub: 9, arms: ['9-4'], hands: [['0-0'], hand, ['1-1'], ['2-2']], yardTop, yardSize: 9, turn: 1 });

  it('O1: while the opening lasts only the hub is open, so 4-2 may not go on the end of a1', () => {
    refusedWith(engine.apply(base(['4-2', '9-1', '6-6']), 1, play('4-2', '9-4')), C.TARGET_NOT_OPEN);
  });

  it('O2: 9-1 on the hub starts a second arm; still the opening; S2 is next', () => {
    const after = accepted(engine.apply(base(['4-2', '9-1', '6-6']), 1, play('9-1', 'hub')));
    expect(hubArms(after)).toBe(2);
    expect(phase(after)).toBe('OPENING');
    expect(round(after).turn).toBe(2);
  });

  it('O3: no 9 in hand: pass is refused, draw 9-6, pass refused, 4-2 does not match, 9-6 goes on the hub', () => {
    let s = base(['4-2', '6-6', '1-3'], ['9-6']);
    refusedWith(engine.apply(s, 1, PASS), C.MUST_DRAW);
    s = accepted(engine.apply(s, 1, DRAW));
    expect(handOf(s, 1)).toContain('6-9');
    expect(round(s).yard).toHaveLength(8);
    expect(round(s).drawsThisTurn).toBe(1);
    refusedWith(engine.apply(s, 1, PASS), C.MUST_PLAY_DRAWN);
    refusedWith(engine.apply(s, 1, play('4-2', 'hub')), C.NO_MATCH);
    s = accepted(engine.apply(s, 1, play('9-6', 'hub')));
    expect(hubArms(s)).toBe(2);
    expect(round(s).turn).toBe(2);
  });

  it('O4: the drawn 3-5 does not fit, so S1 passes holding 4 tiles', () => {
    let s = accepted(engine.apply(base(['4-2', '6-6', '1-3'], ['3-5']), 1, DRAW));
    expect(round(s).yard).toHaveLength(8);
    s = accepted(engine.apply(s, 1, PASS));
    expect(handOf(s, 1)).toHaveLength(4);
    expect(round(s).turn).toBe(2);
  });

  it("O5: the seed's own 4-player example: S0 starts arms 1 and 4, S1 extends a1 once the hub has four arms", () => {
    let s = position({
      ruleset: { players: 4 },
      hub: 9,
      turn: 0,
      yardTop: ['2-3', '9-7'],
      yardSize: 9,
      hands: [['9-4', '9-0', '3-3'], ['2-6', '4-1'], ['9-5', '1-1'], ['6-5']],
    });
    s = playAll(s, [
      [0, play('9-4', 'hub')],
      [1, DRAW],
      [1, PASS],
      [2, play('9-5', 'hub')],
      [3, DRAW],
    ]);
    refusedWith(engine.apply(s, 3, PASS), C.MUST_PLAY_DRAWN);
    s = playAll(s, [
      [3, play('9-7', 'hub')],
      [0, play('9-0', 'hub')],
    ]);
    expect(hubArms(s)).toBe(4);
    expect(phase(s)).toBe('OPEN');
    s = accepted(engine.apply(s, 1, play('4-1', '9-4')));
    expect(round(s).table.find((n) => n.tile === '1-4')?.value).toBe(1);
  });

  const fourArms = ['9-4', '9-1', '9-6', '9-3'];
  it('O6: after the opening the hub is closed by default; with hubCapacity 8 a fifth arm is legal', () => {
    const at = (ruleset: Record<string, unknown>) => position({ ruleset, hub: 9, arms: fourArms, hands: [['0-0'], ['9-2', '1-8'], ['2-2'], ['3-3']], yardSize: 5, turn: 1 });
    expect(phase(at({ players: 4 }))).toBe('OPEN');
    refusedWith(engine.apply(at({ players: 4 }), 1, play('9-2', 'hub')), C.TARGET_NOT_OPEN);
    accepted(engine.apply(at({ players: 4 }), 1, play('1-8', '9-1')));
    const wide = accepted(engine.apply(at({ players: 4, hubCapacity: 8 }), 1, play('9-2', 'hub')));
    expect(hubArms(wide)).toBe(5);
    expect(roundView(wide, 0).hub).toEqual({ tile: '9-9', arms: 5, requiredArms: 4, capacity: 8 });
  });

  it('O7: with hubRequiredArms 6 and four arms the opening goes on: no extension, a fifth arm is legal', () => {
    const s = position({ ruleset: { players: 4, hubRequiredArms: 6 }, hub: 9, arms: fourArms, hands: [['0-0'], ['4-7', '9-7'], ['2-2'], ['3-3']], yardSize: 5, turn: 1 });
    expect(phase(s)).toBe('OPENING');
    refusedWith(engine.apply(s, 1, play('4-7', '9-4')), C.TARGET_NOT_OPEN);
    const after = accepted(engine.apply(s, 1, play('9-7', 'hub')));
    expect(hubArms(after)).toBe(5);
    expect(phase(after)).toBe('OPENING');
  });

  it('O8: malta-cross needs four arms before any arm is extended', () => {
    const s = position({ ruleset: { preset: 'malta-cross', players: 4 }, hub: 9, arms: ['9-5', '9-2'], hands: [['0-0'], ['1-1'], ['2-2'], ['5-3', '9-8']], yardSize: 5, turn: 3 });
    refusedWith(engine.apply(s, 3, play('5-3', '9-5')), C.TARGET_NOT_OPEN);
    expect(hubArms(accepted(engine.apply(s, 3, play('9-8', 'hub'))))).toBe(3);
  });

  it('O9: an opening that can never finish blocks the round [complete]: S0 131 (181 with 0-0 at 50), S1 229', () => {
    const lowTiles = buildSet(5);
    const s1 = [...[0, 1, 2, 3, 4, 5].map((a) => `${a}-6`), ...[0, 1, 2, 3, 4, 5, 6].map((a) => `${a}-7`), ...[0, 1, 2, 3, 4, 5, 6, 7, 8].map((a) => `${a}-8`)];
    const at = (extra: Record<string, unknown>) =>
      position({
        ruleset: { players: 2, hubRequiredArms: 8, ...extra },
        hub: 9,
        arms: ['9-0', '9-1', '9-3', '9-4', '9-6', '9-7', '9-8'],
        hands: [[...lowTiles, '6-6', '7-7'], s1],
        yardTop: ['9-2', '9-5'],
        turn: 0,
      });
    const s = at({});
    const everywhere = [...round(s).table.map((n) => n.tile), ...round(s).hands.flat(), ...round(s).yard];
    expect(checkSet(everywhere.sort(), 9)).toBeNull();
    refusedWith(engine.apply(s, 0, DRAW), C.CANNOT_DRAW);
    const over = accepted(engine.apply(s, 0, PASS));
    expect(over.round).toBeNull();
    expect(lastRound(over)).toMatchObject({ end: 'blocked', scores: [131, 229], roundWinners: [0] });
    expect(lastRound(accepted(engine.apply(at({ doubleBlankValue: 50 }), 0, PASS))).scores).toEqual([181, 229]);
  });

  it('O10: with 2 players the hub needs only 2 arms, and an arm end is open at once', () => {
    const s = position({ ruleset: { players: 2 }, hub: 9, arms: ['9-3', '9-6'], hands: [['3-5'], ['1-1']], yardSize: 5, turn: 0 });
    expect(phase(s)).toBe('OPEN');
    accepted(engine.apply(s, 0, play('3-5', '9-3')));
  });

  it("O11: S2 may not play during S1's opening turn", () => {
    refusedWith(engine.apply(base(['4-2', '9-1', '6-6']), 2, play('9-8', 'hub')), C.NOT_YOUR_TURN);
  });
});

describe('F: the chicken foot', () => {
  const afterF1 = (s1: string[], yardTop: string[] = [], preset = 'classic') => {
    const s = position({ ruleset: { preset, players: 4 }, hub: 9, arms: BOARD_B, hands: [['5-5', '8-1'], s1, ['3-3', '4-4'], ['6-6', '1-1']], yardTop, yardSize: 6, turn: 0 });
    return accepted(engine.apply(s, 0, play('5-5', '9-5')));
  };

  it('F1: playing 5-5 on a1 opens a foot; only the foot is open; the turn passes to S1', () => {
    const s = afterF1(['5-1', '8-3']);
    expect(phase(s)).toBe('FOOT_OPEN');
    expect(targetsOf(s)).toEqual(['5-5']);
    expect(roundView(s, 1).openFoot).toEqual({ tile: '5-5', toes: 0, needed: 3 });
    expect(round(s).turn).toBe(1);
  });

  it('F2: every other end is closed while the foot is open; 5-1 is its first toe', () => {
    const s = afterF1(['5-1', '8-3']);
    refusedWith(engine.apply(s, 1, play('8-3', '2-8')), C.TARGET_NOT_OPEN);
    const after = accepted(engine.apply(s, 1, play('5-1', '5-5')));
    expect(roundView(after, 0).openFoot).toEqual({ tile: '5-5', toes: 1, needed: 3 });
    expect(phase(after)).toBe('FOOT_OPEN');
  });

  it('F3: toe ends stay closed until the third toe; then the foot is full and every end reopens', () => {
    const s = position({ ruleset: { players: 4 }, hub: 9, arms: ['9-5 · [5-5]{5-1, 5-6}', '9-2 · 2-8', '9-7', '9-0'], hands: [['0-0'], ['1-1'], ['1-4', '5-3'], ['5-8']], yardSize: 6, turn: 2 });
    refusedWith(engine.apply(s, 2, play('1-4', '5-1')), C.TARGET_NOT_OPEN);
    const full = accepted(engine.apply(s, 2, play('5-3', '5-5')));
    expect(phase(full)).toBe('OPEN');
    expect(targetsOf(full).sort()).toEqual(['1-5', '5-6', '3-5', '2-8', '7-9', '0-9'].sort());
    expect(
      round(full)
        .table.filter((n) => targetsOf(full).includes(n.tile))
        .map((n) => n.value)
        .sort(),
    ).toEqual([1, 6, 3, 8, 7, 0].sort());
    refusedWith(engine.apply(full, 3, play('5-8', '5-5')), C.TARGET_NOT_OPEN);
    accepted(engine.apply(full, 3, play('5-8', '2-8')));
  });

  it('F4: classic: no toe in hand, draw 5-8, must play it as the first toe (open on 8)', () => {
    let s = afterF1(['8-3', '7-4'], ['5-8']);
    refusedWith(engine.apply(s, 1, play('8-3', '2-8')), C.TARGET_NOT_OPEN);
    refusedWith(engine.apply(s, 1, PASS), C.MUST_DRAW);
    s = accepted(engine.apply(s, 1, DRAW));
    expect(round(s).yard).toHaveLength(5);
    refusedWith(engine.apply(s, 1, PASS), C.MUST_PLAY_DRAWN);
    s = accepted(engine.apply(s, 1, play('5-8', '5-5')));
    expect(round(s).table.find((n) => n.tile === '5-8')?.value).toBe(8);
    expect(roundView(s, 0).openFoot?.toes).toBe(1);
  });

  it('F5: malta-cross: the drawn toe may be kept; S1 passes, the foot stays 0/3, S2 is next', () => {
    let s = afterF1(['8-3', '7-4'], ['5-8'], 'malta-cross');
    s = playAll(s, [
      [1, DRAW],
      [1, PASS],
    ]);
    expect(handOf(s, 1)).toContain('5-8');
    expect(roundView(s, 0).openFoot?.toes).toBe(0);
    expect(round(s).turn).toBe(2);
  });

  it('F6: the drawn 7-2 fits a3 but the open foot closes it, so S1 passes', () => {
    const s = accepted(engine.apply(afterF1(['8-3', '6-4'], ['7-2']), 1, DRAW));
    refusedWith(engine.apply(s, 1, play('7-2', '7-9')), C.TARGET_NOT_OPEN);
    accepted(engine.apply(s, 1, PASS));
  });

  it('F7: a double on the end of a toe of a complete foot opens a new foot', () => {
    const s = position({ ruleset: { players: 4 }, hub: 9, arms: ['9-5 · [5-5]{5-1, 5-6, 5-3}', '9-2 · 2-8', '9-7', '9-0'], hands: [['0-0'], ['1-1'], ['2-2'], ['6-6', '2-4']], yardSize: 6, turn: 3 });
    const after = accepted(engine.apply(s, 3, play('6-6', '5-6')));
    expect(phase(after)).toBe('FOOT_OPEN');
    expect(targetsOf(after)).toEqual(['6-6']);
    expect(round(after).table.find((n) => n.tile === '6-6')).toMatchObject({ kind: 'foot', value: 6 });
  });

  it('F8: no double may go on a toe while its foot is open; the third toe completes it and reopens the toe ends', () => {
    const s = position({ ruleset: { players: 4 }, hub: 9, arms: ['9-5 · [5-5]{5-1, 5-3}', '9-2 · 2-8', '9-7', '9-0'], hands: [['3-3', '5-4'], ['1-1'], ['2-2'], ['6-6']], yardSize: 6, turn: 0 });
    refusedWith(engine.apply(s, 0, play('3-3', '3-5')), C.TARGET_NOT_OPEN);
    const after = accepted(engine.apply(s, 0, play('5-4', '5-5')));
    expect(phase(after)).toBe('OPEN');
    expect(targetsOf(after)).toContain('3-5');
  });

  const f9 = (ruleset: Record<string, unknown>) =>
    position({ ruleset: { players: 4, ...ruleset }, hub: 9, arms: BOARD_B, hands: [['6-1', '0-0'], ['4-3'], ['8-8'], ['7-7', '2-5']], yardSize: 6, turn: 2 });

  it('F9: going out on 8-8 ends the round at once; the new foot needs no toes; S0 7, S1 7, S2 0, S3 21', () => {
    const over = accepted(engine.apply(f9({}), 2, play('8-8', '2-8')));
    expect(over.round).toBeNull();
    expect(lastRound(over)).toMatchObject({ end: 'domino', wentOut: 2, scores: [7, 7, 0, 21] });
  });

  it('F10: a foot that cannot be filled blocks the round once the yard is down to its reserve', () => {
    const arms = ['9-4 · [4-4]{4-0}', '9-1 · 1-4 · 4-2', '9-3 · 3-4 · 4-5', '9-6 · 6-4 · 4-8 · 8-7'];
    const at = (extra: Record<string, unknown>) => position({ ruleset: { players: 4, ...extra }, hub: 9, arms, hands: [['9-8'], ['1-1', '2-3'], ['0-0'], ['7-7', '6-5']], yardTop: ['4-7'], turn: 0 });
    expect(phase(at({}))).toBe('FOOT_OPEN');
    refusedWith(engine.apply(at({}), 0, DRAW), C.CANNOT_DRAW);
    const over = accepted(engine.apply(at({}), 0, PASS));
    expect(lastRound(over)).toMatchObject({ end: 'blocked', scores: [17, 7, 0, 25], roundWinners: [2] });
    const fifty = accepted(engine.apply(at({ doubleBlankValue: 50 }), 0, PASS));
    expect(lastRound(fifty)).toMatchObject({ scores: [17, 7, 50, 25], roundWinners: [1] });
  });
});

describe('D: drawing and passing', () => {
  it('D1: no drawing or passing while holding a play', () => {
    const s = boardB({ hands: [['0-0'], ['7-3', '6-6'], ['1-1'], ['2-2']], yardSize: 5, turn: 1 });
    refusedWith(engine.apply(s, 1, DRAW), C.MUST_PLAY);
    refusedWith(engine.apply(s, 1, PASS), C.MUST_PLAY);
    accepted(engine.apply(s, 1, play('7-3', '7-9')));
  });

  it('D2: the reserve tile cannot be drawn with 3 players; the round goes on while S0 can play 5-2', () => {
    let s = position({ ruleset: { players: 3 }, hub: 9, arms: ['9-5', '9-2 · 2-8', '9-7'], hands: [['5-2'], ['1-3', '4-6'], ['6-6']], yardTop: ['3-3'], turn: 1 });
    refusedWith(engine.apply(s, 1, DRAW), C.CANNOT_DRAW);
    s = playAll(s, [
      [1, PASS],
      [2, PASS],
    ]);
    expect(s.round).not.toBeNull();
    accepted(engine.apply(s, 0, play('5-2', '9-5')));
  });

  const d3 = (detection: string) =>
    position({
      ruleset: { players: 2, blockedDetection: detection },
      hub: 9,
      arms: ['9-3', '9-6'],
      hands: [
        ['0-1', '2-2'],
        ['5-5', '8-0'],
      ],
      yardTop: ['1-4', '1-1', '4-4'],
      turn: 0,
    });

  it('D3/B4: 2 players: the last drawable tile, then the round blocks with 2 tiles in the yard (immediate)', () => {
    let s = accepted(engine.apply(d3('immediate'), 0, DRAW));
    expect(round(s).yard).toHaveLength(2);
    s = accepted(engine.apply(s, 0, PASS));
    expect(lastRound(s)).toMatchObject({ end: 'blocked', scores: [10, 18] });
    expect(lastRound(s).yard).toHaveLength(2);
  });

  it('D3: with passCycle detection S1 must pass too, and two passes in a row block the round', () => {
    let s = playAll(d3('passCycle'), [
      [0, DRAW],
      [0, PASS],
    ]);
    expect(round(s).turn).toBe(1);
    refusedWith(engine.apply(s, 1, DRAW), C.CANNOT_DRAW);
    s = accepted(engine.apply(s, 1, PASS));
    expect(lastRound(s)).toMatchObject({ end: 'blocked', scores: [10, 18] });
  });

  it('D4: malta-cross: the boneyard may be emptied, then a seat with no play loses its turn', () => {
    let s = position({ ruleset: { preset: 'malta-cross', players: 4 }, hub: 9, arms: BOARD_B, hands: [['2-2'], ['3-3', '6-1'], ['1-2'], ['7-2']], yardTop: ['4-4'], turn: 1 });
    refusedWith(engine.apply(s, 1, PASS), C.MUST_DRAW);
    s = playAll(s, [
      [1, DRAW],
      [1, PASS],
    ]);
    expect(round(s).yard).toHaveLength(0);
    refusedWith(engine.apply(s, 2, DRAW), C.CANNOT_DRAW);
    s = playAll(s, [
      [2, PASS],
      [3, play('7-2', '7-9')],
    ]);
  });

  const d5 = (drawPolicy: string) =>
    boardB({ ruleset: { players: 4, drawPolicy }, hands: [['0-0'], ['3-3', '6-1'], ['1-1'], ['2-2']], yardTop: ['4-4', '1-2', '8-6', '3-4', '1-4'], yardSize: 5, turn: 1 });

  it('D5: draw policy "one": one draw, then a pass', () => {
    const s = accepted(engine.apply(d5('one'), 1, DRAW));
    refusedWith(engine.apply(s, 1, DRAW), C.CANNOT_DRAW);
    accepted(engine.apply(s, 1, PASS));
  });

  it('D5: draw policy "untilPlayable": draw 4-4, 1-2, 8-6, then play 8-6; the yard is left with 2', () => {
    let s = accepted(engine.apply(d5('untilPlayable'), 1, DRAW));
    refusedWith(engine.apply(s, 1, PASS), C.MUST_DRAW);
    s = playAll(s, [
      [1, DRAW],
      [1, DRAW],
      [1, play('8-6', '2-8')],
    ]);
    expect(round(s).yard).toHaveLength(2);
  });

  it('D6: a drawn 7-0 fits a3 and a4; the player chooses, and may not pass', () => {
    const s = accepted(engine.apply(boardB({ hands: [['1-1'], ['3-3'], ['2-2'], ['4-4']], yardTop: ['7-0'], turn: 1 }), 1, DRAW));
    expect(engine.legalActions(s, 1)).toEqual([play('7-0', '7-9'), play('7-0', '0-9')]);
    expect(round(accepted(engine.apply(s, 1, play('7-0', '7-9')))).table.find((n) => n.tile === '0-7')?.value).toBe(0);
    expect(round(accepted(engine.apply(s, 1, play('7-0', '0-9')))).table.find((n) => n.tile === '0-7')?.value).toBe(7);
    refusedWith(engine.apply(s, 1, PASS), C.MUST_PLAY_DRAWN);
  });

  it('D7: checks run in order: not your turn, then tile not in hand, then no match', () => {
    const s = boardB({ hands: [['1-1'], ['7-3'], ['2-2'], ['4-4']], turn: 1 });
    refusedWith(engine.apply(s, 2, play('7-4', '7-9')), C.NOT_YOUR_TURN);
    refusedWith(engine.apply(s, 1, play('7-4', '5-9')), C.TILE_NOT_IN_HAND);
    refusedWith(engine.apply(s, 1, play('7-3', '5-9')), C.NO_MATCH);
  });

  it('D8: no play on an interior tile; with no play and a drawable yard the only action is to draw', () => {
    const s = boardB({ hands: [['1-1'], ['2-6'], ['3-3'], ['4-4']], turn: 1 });
    refusedWith(engine.apply(s, 1, play('2-6', '9-2')), C.TARGET_NOT_OPEN);
    expect(engine.legalActions(s, 1)).toEqual([DRAW]);
  });
});

describe('B: blocked rounds', () => {
  const b1Hands = [['1-2'], ['3-3', '6-4'], ['2-2', '1-3'], ['6-6', '4-2']];

  it('B1: nobody matches and the yard is at its reserve: S0 passes and the round is blocked; S0 3, S1 16, S2 8, S3 18', () => {
    const over = accepted(engine.apply(boardB({ hands: b1Hands, yardTop: ['4-4'], yardSize: 1, turn: 0 }), 0, PASS));
    expect(lastRound(over)).toMatchObject({ end: 'blocked', wentOut: null, scores: [3, 16, 8, 18], roundWinners: [0] });
    expect(over.totals).toEqual([3, 16, 8, 18]);
  });

  it('B2: not blocked while S2 can still play 7-3; it then opens a3 on 3 for S1', () => {
    let s = boardB({ hands: [['1-2'], ['3-3', '6-4'], ['2-2', '7-3'], ['6-6', '4-2']], yardTop: ['4-4'], yardSize: 1, turn: 0 });
    s = playAll(s, [
      [0, PASS],
      [1, PASS],
    ]);
    expect(s.round).not.toBeNull();
    s = accepted(engine.apply(s, 2, play('7-3', '7-9')));
    expect(targetsOf(s)).toContain('3-7');
  });

  it('B3: malta-cross: one boneyard tile is not a block; after drawing it S0 passes and the round blocks', () => {
    let s = boardB({ ruleset: { preset: 'malta-cross', players: 4 }, hands: b1Hands, yardTop: ['4-1'], yardSize: 1, turn: 0 });
    refusedWith(engine.apply(s, 0, PASS), C.MUST_DRAW);
    s = playAll(s, [
      [0, DRAW],
      [0, PASS],
    ]);
    expect(lastRound(s)).toMatchObject({ end: 'blocked', scores: [8, 16, 8, 18], roundWinners: [0, 2] });
  });

  it('B5: the "no draw" house rule ends the round when a seat with no play finds the yard exhausted', () => {
    const at = (extra: Record<string, unknown>) => boardB({ ruleset: { players: 4, ...extra }, hands: [['1-2'], ['3-3', '6-4'], ['2-2'], ['7-3']], yardTop: ['4-4'], yardSize: 1, turn: 1 });
    expect(accepted(engine.apply(at({}), 1, PASS)).round).not.toBeNull();
    const over = accepted(engine.apply(at({ emptyYardEndsRound: true }), 1, PASS));
    expect(lastRound(over)).toMatchObject({ end: 'blocked', scores: [3, 16, 4, 10] });
  });
});

describe('R: scoring a round', () => {
  it('R1: going out with 0-0 left in S0 hand: 7 by default, 57 with the double-blank at 50 or under malta-cross', () => {
    const scoresOf = (ruleset: Record<string, unknown>) =>
      lastRound(
        accepted(
          engine.apply(
            position({
              ruleset: { players: 4, ...ruleset },
              hub: 9,
              arms: BOARD_B,
              hands: [['6-1', '0-0'], ['4-3'], ['8-8'], ['7-7', '2-5']],
              yardSize: 6,
              turn: 2,
            }),
            2,
            play('8-8', '2-8'),
          ),
        ),
      ).scores;
    expect(scoresOf({})).toEqual([7, 7, 0, 21]);
    expect(scoresOf({ doubleBlankValue: 50 })).toEqual([57, 7, 0, 21]);
    expect(scoresOf({ preset: 'malta-cross' })).toEqual([57, 7, 0, 21]);
    // R4: the house penalty for going out on a double.
    expect(scoresOf({ lastTileDoublePenalty: 50 })).toEqual([7, 7, 50, 21]);
  });

  it('R3: blank valuation: {0-5, 0-0, 3-4} is 12, 62 with 0-0 at 50, 87 with blank ends at 25 too', () => {
    const hand = ['0-5', '0-0', '3-4'];
    expect(handValue(hand, { doubleBlankValue: 0, blankEndValue: null })).toBe(12);
    expect(handValue(hand, { doubleBlankValue: 50, blankEndValue: null })).toBe(62);
    expect(handValue(hand, { doubleBlankValue: 50, blankEndValue: 25 })).toBe(87);
  });
});

describe('G: end of the game and winners', () => {
  it('G1: classic tie on 97: S1 and S2 share the win', () => {
    expect(rankWinners([112, 97, 97], [[112, 97, 97]], [], [0, 1, 2])).toEqual({ winners: [1, 2], decidedBy: 'shared' });
  });

  const malta = ['zeroRounds', 'lowestPositiveRound'] as const;
  /** Totals and the per-round sheet from each seat's round scores. */
  const scoreSheet = (bySeat: number[][]): [number[], number[][]] => [bySeat.map((rounds) => rounds.reduce((a, b) => a + b)), bySeat[0].map((_, round) => bySeat.map((seat) => seat[round]))];

  it('G2: malta-cross: tied on total and zero rounds, the lowest positive round (5 beats 12) decides for S1', () => {
    expect(
      rankWinners(
        ...scoreSheet([
          [0, 12, 0, 18],
          [5, 0, 25, 0],
          [20, 9, 4, 6],
        ]),
        malta,
        [0, 1, 2],
      ),
    ).toEqual({ winners: [1], decidedBy: 'lowestPositiveRound' });
  });

  it('G3: malta-cross: two zero rounds beat one, S0 wins', () => {
    expect(
      rankWinners(
        ...scoreSheet([
          [0, 10, 0, 20],
          [6, 0, 14, 10],
          [30, 25, 9, 0],
        ]),
        malta,
        [0, 1, 2],
      ),
    ).toEqual({ winners: [0], decidedBy: 'zeroRounds' });
  });

  it('G4: malta-cross: still tied after every step, S0 and S1 share the win', () => {
    expect(
      rankWinners(
        ...scoreSheet([
          [0, 8, 12, 10],
          [8, 0, 10, 12],
          [20, 20, 15, 15],
        ]),
        malta,
        [0, 1, 2],
      ),
    ).toEqual({ winners: [0, 1], decidedBy: 'shared' });
  });

  it('G5: with targetScore 150 the game ends once S1 reaches 152 and S2 (60) wins; by default it goes on', () => {
    const at = (gameEnd: unknown) =>
      position({
        ruleset: { players: 3, gameEnd },
        hub: 6,
        arms: ['6-5', '6-2', '6-3'],
        hands: [['5-1'], ['6-6'], ['0-0']],
        yardSize: 1,
        turn: 0,
        totals: [90, 140, 60],
      });
    const ended = accepted(engine.apply(at({ targetScore: 150 }), 0, play('5-1', '5-6')));
    expect(ended.totals).toEqual([90, 152, 60]);
    expect(engine.outcome(ended)).toMatchObject({ winners: [2], points: [90, 152, 60] });
    const goesOn = accepted(engine.apply(at('allDoubles'), 0, play('5-1', '5-6')));
    expect(engine.outcome(goesOn)).toBeNull();
    expect(engine.pendingChance(goesOn)?.label).toBe('TilesShuffled');
  });
});
