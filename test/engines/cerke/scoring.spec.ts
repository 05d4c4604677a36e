import { type CapturedPiece, type CerkeState, castValues, evaluatePile } from '../../../src/games/cerke/engine/index.js';
import { cast, engine, initial, move, online, pieceOn, play, position, rejection, resolve, rules, strict } from './helpers.js';

const KIND_OF: Record<string, CapturedPiece['kind']> = {
  船: 'Vessel',
  兵: 'Pawn',
  弓: 'Archer',
  車: 'Chariot',
  虎: 'Tiger',
  馬: 'Horse',
  筆: 'Officer',
  巫: 'Shaman',
  将: 'General',
  王: 'King',
};
/** `黒虎 赤馬` → pile; `黒兵×4` repeats. */
function pile(text: string): CapturedPiece[] {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((token) => {
      const [piece, times] = token.split('×');
      const one = { colour: piece[0] === '赤' ? 'red' : 'black', kind: KIND_OF[piece[1]] } as CapturedPiece;
      return Array.from({ length: Number(times ?? 1) }, () => one);
    });
}
function score(text: string) {
  const result = evaluatePile(pile(text));
  if (!result.ok) throw new Error(result.error.message);
  return { score: result.value.score, hands: result.value.hands.map((h) => (h.flash && h.name !== 'King' ? `flash ${h.name}` : h.name)).sort() };
}
const hands = (...names: string[]) => names.sort();

describe('B. sticks', () => {
  it('B1: five two-sided sticks give 0-5 with weights 1 5 10 10 5 1', () => {
    const counts = [0, 0, 0, 0, 0, 0];
    for (let bits = 0; bits < 32; bits++) counts[[0, 1, 2, 3, 4].filter((i) => bits & (1 << i)).length]++;
    expect(counts).toEqual([1, 5, 10, 10, 5, 1]);
    expect(counts[3] + counts[4] + counts[5]).toBe(16);
    expect(castValues(3)).toEqual([1, 1, 1, 0, 0]);
  });

  it('B2: both sides cast for the first move and cast again on a tie', () => {
    let state = engine.init(online);
    expect(engine.pendingChance(state)).toEqual({ label: 'FirstMoverCast', ranges: Array(10).fill(2) });
    expect(engine.toAct(state)).toEqual([]);
    state = resolve(state, [...castValues(3), ...castValues(3)]);
    expect(engine.pendingChance(state)?.label).toBe('FirstMoverCast');
    state = resolve(state, [...castValues(2), ...castValues(4)]);
    expect(engine.toAct(state)).toEqual([1]);
    expect(state.lastCast).toEqual({ purpose: 'firstMover', sticks: { IA: [1, 1, 0, 0, 0], A: [1, 1, 1, 1, 0] }, values: { IA: 2, A: 4 } });
    let ties = 0;
    const binomial = [1, 5, 10, 10, 5, 1];
    for (const n of binomial) ties += n * n;
    expect(ties).toBe(252);
  });

  it('casts are only asked for when the rules call for one', () => {
    let state = initial('IA');
    expect(engine.pendingChance(state)).toBeNull();
    state = play(state, move('KAI', 'KY'));
    expect(engine.pendingChance(state)).toBeNull();
    expect(engine.resolveChance(state, castValues(3))).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });
});

describe('I. hands', () => {
  it.each([
    ['I1', '黒王', hands('King'), 5],
    ['I2', '黒虎 赤馬', hands('Animals'), 3],
    ['I3', '黒虎 黒王', hands('King', 'flash Animals'), 10],
    ['I4', '赤兵 赤兵 黒王', hands('King', 'Comrades', 'Army'), 11],
    ['I5', '黒兵 黒王 黒弓 赤兵', hands('King', 'Comrades', 'flash Cavalry', 'Army'), 18],
    ['I6', '黒将 赤筆 赤兵 黒弓 黒王 赤王', hands('King', 'Army', 'Comrades', 'Cavalry', 'Culture', 'SocialOrder', 'Animals'), 36],
    ['I7', '赤弓 赤車 赤筆 赤将 赤虎 黒弓', [], 0],
    ['I8', '赤兵 赤弓 赤虎 赤兵 赤兵 黒巫 赤兵 赤兵 黒兵', hands('flash DeadlyArmy'), 5],
    ['I9', '黒兵 黒弓 赤筆 赤巫 黒王', hands('King', 'flash Cavalry', 'Culture', 'SocialOrder'), 29],
    ['I12', '赤兵 黒虎 赤馬', hands('Animals'), 3],
    ['I13', '赤兵 黒虎 赤馬 黒弓', hands('Animals', 'Cavalry'), 8],
    ['I14', '赤兵 赤虎 赤馬 赤弓', hands('flash Animals', 'flash Cavalry'), 12],
    ['I15', '赤王 黒王', hands('King', 'Animals'), 8],
    ['I16', '黒兵×4 赤兵', hands('DeadlyArmy'), 3],
    ['I17', '黒兵×6', hands('flash DeadlyArmy'), 5],
    [
      'I18',
      '赤船 赤兵 赤弓 赤車 赤虎 赤馬 赤筆 赤巫 赤将 赤王',
      hands('flash Unbeatable', 'flash SocialOrder', 'flash Culture', 'flash Cavalry', 'flash Attack', 'King', 'flash Animals', 'flash Army', 'flash Comrades'),
      107,
    ],
    ['I19', '黒船 黒車 赤馬', hands('Attack'), 5],
    ['I20', '黒船 黒王', hands('King'), 5],
  ])('%s: %s', (_id, text, expected, value) => {
    expect(score(text)).toEqual({ hands: expected, score: value });
  });

  it('I10, I11: piles no game can produce are rejected', () => {
    expect(evaluatePile(pile('赤王 赤王'))).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringContaining('2 red Kings') } });
    const error = evaluatePile(pile('黒車 黒車 黒車 赤巫 赤巫 赤巫 赤船'));
    expect(error).toMatchObject({ ok: false, error: { message: expect.stringMatching(/3 red Shamans.*3 black Chariots/) } });
  });
});

/** A state waiting for `seat`'s declaration, with `pile` just completed by a capture. */
function declaring(seat: number, pileText: string, extra: Partial<CerkeState> = {}, ruleset = online): CerkeState {
  const base = initial(seat === 0 ? 'IA' : 'A', ruleset);
  const piles = [[], []] as CapturedPiece[][];
  piles[seat] = pile(pileText);
  const result = evaluatePile(piles[seat]);
  if (!result.ok) throw new Error(result.error.message);
  return { ...base, ...extra, capturedPiles: piles, phase: { name: 'declaration', hands: result.value.hands, negativeHands: [], newPositiveHand: true } };
}

describe('J. declarations, stake and settlement', () => {
  /** The seed's worked example as a game: X = IA, Y = A. */
  function seedExample(ruleset = strict) {
    const start = position({ IA: 'bA@KAU bK@PIA', A: 'rH@KE bA@LE rP@PE rK@PA', tam2: 'ZO', toMove: 'IA' }, ruleset);
    return { ...start, capturedPiles: [pile('赤兵 黒虎'), []] };
  }

  it('J1: the seed worked example, ending with a strict Futile Move that the declarer pays for', () => {
    let state = play(seedExample(), move('KAU', 'KE'));
    expect(engine.view(state, 0)).toMatchObject({ pendingDecision: { type: 'declaration', side: 'IA', handValue: 3, pointsIfSeasonEnds: 3 } });
    expect(play(state, { type: 'endSeason' }).points).toEqual([23, 17]);
    state = play(state, { type: 'continue' });
    expect(state).toMatchObject({ stake: 2, toMove: 1 });
    state = play(state, move('PE', 'PI'));
    state = play(state, move('KE', 'LE'));
    expect(engine.view(state, 0)).toMatchObject({ pendingDecision: { handValue: 8, pointsIfSeasonEnds: 16 } });
    expect(play(state, { type: 'endSeason' }).points).toEqual([36, 4]);
    state = play(state, { type: 'continue' });
    expect(state.stake).toBe(4);
    state = play(state, { type: 'moveTam2', firstSquare: 'ZU', to: 'ZO' });
    expect(engine.view(state, 1)).toMatchObject({ pendingDecision: { side: 'A', hands: [{ name: 'FutileMove', value: -3 }], pointsIfSeasonEnds: -12 } });
    state = play(state, { type: 'endSeason' });
    expect(state.points).toEqual([32, 8]);
    expect(state.season).toBe(1);
    expect(engine.pendingChance(state)?.label).toBe('FirstMoverCast');
  });

  it('J5: the stake doubles on each continue and stays at ×64', () => {
    const stakes: number[] = [];
    let state = declaring(0, '黒王');
    for (let i = 0; i < 7; i++) {
      state = play(state, { type: 'continue' });
      stakes.push(state.stake);
      state = { ...state, toMove: 0, phase: declaring(0, '黒王').phase };
    }
    expect(stakes).toEqual([2, 4, 8, 16, 32, 64, 64]);
  });

  it('J6: the stake resets to ×1 at the next season', () => {
    const state = play(declaring(0, '黒王', { stake: 8 }), { type: 'endSeason' });
    expect(state.points).toEqual([40, 0]);
    const smaller = play(declaring(0, '黒虎 赤馬', { stake: 2 }), { type: 'endSeason' });
    expect(smaller).toMatchObject({ stake: 1, season: 1, points: [26, 14], capturedPiles: [[], []] });
    expect(pieceOn(smaller, 'ZO')).toBe('Tam2');
  });

  it('J7: a new hand is one the pile did not have at the start of the turn', () => {
    let state = position({ IA: 'bA@KAU bK@PIA', A: 'bT@KE rK@PA rP@PE', tam2: 'ZO', toMove: 'IA' });
    state = { ...state, capturedPiles: [pile('赤虎 黒馬'), []] };
    state = play(state, { type: 'drop', colour: 'red', kind: 'Tiger', to: 'LAU' });
    expect(state.phase.name).toBe('move');
    state = play(state, move('PE', 'PI'));
    state = play(state, move('KAU', 'KE'));
    expect(state.phase).toMatchObject({ name: 'declaration', hands: [{ name: 'Animals', flash: true, value: 5 }] });
    let pawns = position({ IA: 'bA@KAU bK@PIA', A: 'bP@KE rK@PA', tam2: 'ZO', toMove: 'IA' });
    pawns = { ...pawns, capturedPiles: [pile('赤兵×5'), []] };
    expect(play(pawns, move('KAU', 'KE'))).toMatchObject({ toMove: 1, phase: { name: 'move' } });
  });

  it('J8: ending the season scores the whole pile', () => {
    let state = position({ IA: 'bA@KAU bK@PIA', A: 'bP@KE rK@PA', tam2: 'ZO', toMove: 'IA', stake: 2 });
    state = { ...state, capturedPiles: [pile('黒馬 黒弓 赤虎'), []] };
    state = play(play(state, move('KAU', 'KE')), { type: 'endSeason' });
    expect(state.points).toEqual([40, 0]);
    expect(state.seasonResults[0]).toMatchObject({ handValue: 10, stake: 2, pointsDeclared: 20, pointsMoved: 20 });
  });

  it('J9: equal points after the last season is a draw; 21-19 wins', () => {
    const oneSeason = rules({ seasons: 1 });
    const draw = play(declaring(0, '黒虎 赤馬', { points: [17, 23], ruleset: oneSeason }), { type: 'endSeason' });
    expect(engine.outcome(draw)).toMatchObject({ winners: [0, 1], points: [20, 20] });
    const win = play(declaring(0, '黒虎 赤馬', { points: [18, 22], ruleset: oneSeason }), { type: 'endSeason' });
    expect(engine.outcome(win)).toMatchObject({
      winners: [0],
      points: [21, 19],
      details: {
        reason: 'lastSeason',
        ranking: [
          { rank: 1, side: 'IA' },
          { rank: 2, side: 'A' },
        ],
      },
    });
  });

  it('J10: points are clamped to 0-40 and reaching 40 ends the game', () => {
    const state = play(declaring(0, '黒王', { points: [35, 5], stake: 4 }), { type: 'endSeason' });
    expect(state.points).toEqual([40, 0]);
    expect(state.seasonResults[0]).toMatchObject({ pointsDeclared: 20, pointsMoved: 5 });
    expect(engine.outcome(state)).toMatchObject({ winners: [0], details: { reason: 'pointsRanOut' } });
  });

  it('J11: declarations are refused when no new hand was made', () => {
    const state = initial('IA');
    expect(rejection(state, { type: 'continue' }).code).toBe('NO_PENDING_DECISION');
    expect(rejection(state, { type: 'endSeason' }).code).toBe('NO_PENDING_DECISION');
    expect(rejection(declaring(0, '黒王'), move('KAI', 'KY'))).toMatchObject({ code: 'ILLEGAL_MOVE', message: expect.stringContaining('declare') });
  });

  it('J12: drops go onto empty squares only and never call for a declaration', () => {
    let state = initial('IA');
    state = { ...state, capturedPiles: [pile('黒虎 赤馬'), []] };
    expect(rejection(state, { type: 'drop', colour: 'black', kind: 'Tiger', to: 'ZIA' }).message).toContain('empty square');
    expect(rejection(state, { type: 'drop', colour: 'red', kind: 'Tiger', to: 'ZY' }).message).toContain('no red Tiger');
    const dropped = play(state, { type: 'drop', colour: 'black', kind: 'Tiger', to: 'ZY' });
    expect(dropped).toMatchObject({ toMove: 1, phase: { name: 'move' }, capturedPiles: [[{ kind: 'Horse', colour: 'red' }], []] });
  });

  it('a two-season game ends after summer; the first mover of each season is cast anew', () => {
    const two = rules({ seasons: 2 });
    let state = play(declaring(0, '黒王', { ruleset: two }), { type: 'endSeason' });
    expect(state.points).toEqual([25, 15]);
    state = resolve(state, [...castValues(1), ...castValues(2)]);
    expect(state.firstMover).toBe('A');
    state = play({ ...state, capturedPiles: [[], pile('黒王')], phase: declaring(1, '黒王').phase }, { type: 'endSeason' });
    expect(engine.outcome(state)).toMatchObject({ winners: [0, 1], points: [20, 20] });
    expect(state.seasonResults.map((s) => [s.name, s.firstMover, s.endedBy])).toEqual([
      ['Spring', 'IA', { how: 'endSeason', side: 'IA' }],
      ['Summer', 'A', { how: 'endSeason', side: 'A' }],
    ]);
  });

  it('resigning ends the whole game for the opponent', () => {
    const state = engine.resign(initial('IA'), 0);
    expect(state.ok && engine.outcome(state.value)).toMatchObject({ winners: [1], summary: expect.stringContaining('IA resigned') });
    expect(state.ok && engine.apply(state.value, 1, move('KE', 'KI')).ok).toBe(false);
  });
});

describe('turns and views', () => {
  it('only the side to move may act, and never during a cast', () => {
    const state = initial('IA');
    expect(rejection(state, move('PE', 'PI'), 1)).toMatchObject({ code: 'NOT_YOUR_TURN', message: "it is the IA side's turn" });
    const casting = play(state, move('MAU', 'MY', 'MAI'));
    expect(engine.toAct(casting)).toEqual([]);
    expect(engine.apply(casting, 0, { type: 'abandonStep' })).toMatchObject({ ok: false, error: { code: 'NOT_YOUR_TURN' } });
    expect(engine.legalActions(casting, 0)).toEqual([]);
  });

  it('the view shows board, piles, points, stake, season, turn, pending decision and the last cast', () => {
    const state = cast(play(initial('IA'), move('MAU', 'MY', 'MAI')), 2);
    const view = engine.view(state, 'spectator') as Record<string, unknown>;
    expect(view).toMatchObject({
      viewerSide: null,
      profile: 'online',
      seasonCount: 4,
      season: { number: 1, name: 'Spring', firstMover: 'IA' },
      stake: 1,
      points: { IA: 20, A: 20 },
      toMove: 'IA',
      phase: 'stepCompletion',
      tam2: 'ZO',
      capturedPiles: { IA: { pieces: [], hands: [], score: 0 }, A: { pieces: [], hands: [], score: 0 } },
      pendingDecision: { type: 'stepCompletion', side: 'IA', from: 'MAU', via: 'MAI', planned: 'MY', cast: 2, completions: ['MY', 'MO'] },
      lastCast: { purpose: 'stepping', side: 'IA', sticks: [1, 1, 0, 0, 0], value: 2 },
    });
    expect(view.board).toHaveLength(48);
    expect(engine.view(state, 1)).toMatchObject({ viewerSide: 'A' });
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });

  it('a state is never changed in place', () => {
    const state = initial('IA');
    const copy = JSON.parse(JSON.stringify(state));
    play(state, move('MAU', 'MY', 'MAI'));
    play(state, move('KAI', 'KY'));
    expect(state).toEqual(copy);
  });
});
