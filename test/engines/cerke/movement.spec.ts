import { IS_FIXED_HUE, IS_WATER, parseSquare, squareName } from '../../../src/games/cerke/engine/board.js';
import { isInHue } from '../../../src/games/cerke/engine/movement.js';
import { afterRecord, cast, engine, initial, intents, move, online, pieceOn, play, position, rejection, rules, sorted, strict, targets } from './helpers.js';

const names = (flags: boolean[]) => flags.flatMap((f, i) => (f ? [squareName(i)] : [])).sort();

describe('A. the board', () => {
  it('A1: squares are a column letter then a row name', () => {
    expect(parseSquare('ZAI')).toBe(6 * 9 + 4);
    expect(parseSquare('LIA')).toBe(8 * 9 + 1);
    expect(parseSquare('KA')).toBe(0);
    expect(parseSquare('PIA')).toBe(80);
    for (const bad of ['ZAA', 'Z', 'QA', '', 'zo']) expect(parseSquare(bad)).toBe(-1);
  });

  it('A2: Tam2 water is a plus shape of 9 squares', () => {
    expect(names(IS_WATER)).toEqual(sorted(['NO', 'TO', 'ZO', 'XO', 'CO', 'ZI', 'ZU', 'ZY', 'ZAI']));
    for (const dry of ['NI', 'ZA', 'ZIA', 'KO']) expect(IS_WATER[parseSquare(dry)]).toBe(false);
  });

  it('A3: the fixed squares of Tam2 field are an X shape; ZO is the hill', () => {
    expect(names(IS_FIXED_HUE)).toEqual(sorted(['NI', 'CI', 'TU', 'XU', 'ZO', 'TY', 'XY', 'NAI', 'CAI']));
    expect(names(IS_FIXED_HUE.map((h, i) => h && IS_WATER[i]))).toEqual(['ZO']);
  });

  it('A4: Tam2 on PIA puts MAU, PAU and MIA in its field', () => {
    const hue = Array.from({ length: 81 }, (_, i) => isInHue(i, parseSquare('PIA'), false));
    expect(names(hue)).toEqual(sorted(['NI', 'CI', 'TU', 'XU', 'ZO', 'TY', 'XY', 'NAI', 'CAI', 'MAU', 'PAU', 'MIA']));
  });

  it('A5: the initial layout', () => {
    const state = engine.init(online);
    expect(pieceOn(state, 'ZO')).toBe('Tam2');
    expect(pieceOn(state, 'ZIA')).toEqual({ kind: 'King', colour: 'black', side: 'IA' });
    expect(pieceOn(state, 'ZA')).toEqual({ kind: 'King', colour: 'red', side: 'A' });
    expect(pieceOn(state, 'ZAI')).toEqual({ kind: 'Vessel', colour: 'black', side: 'IA' });
    expect(pieceOn(state, 'ZI')).toEqual({ kind: 'Vessel', colour: 'red', side: 'A' });
    for (const sq of ['NI', 'CI', 'NAI', 'CAI']) expect(pieceOn(state, sq)).toMatchObject({ kind: 'Pawn', colour: 'black' });
    const pieces = state.board.filter((c) => c !== null);
    expect(pieces).toHaveLength(49);
    const count = (side: string, colour: string) => pieces.filter((c) => c !== 'Tam2' && c.side === side && c.colour === colour).length;
    expect([count('IA', 'black'), count('IA', 'red'), count('A', 'red'), count('A', 'black')]).toEqual([13, 11, 13, 11]);
  });

  it('A6: 240 candidate moves from the initial position, 249 when stepping on Tam2 is allowed', () => {
    for (const side of ['IA', 'A'] as const) {
      const state = initial(side);
      expect(engine.legalActions(state, state.toMove)).toHaveLength(249);
      const extra = engine.legalActions(state, state.toMove).filter((a) => a.type === 'move' && a.via === 'ZO');
      expect(extra).toHaveLength(9);
      const noKut2Tam2 = initial(side, rules({ allowKut2Tam2: false }));
      expect(engine.legalActions(noKut2Tam2, noKut2Tam2.toMove)).toHaveLength(240);
    }
  });
});

describe('C. movement', () => {
  it('C1: a pawn on a fixed square of Tam2 field may step backwards', () => {
    let state = initial('IA');
    state = cast(play(state, move('MAU', 'MY', 'MAI')), 5);
    state = play(state, { type: 'completeStep', to: 'MY' });
    state = play(state, move('PE', 'PU', 'PI'));
    state = play(state, move('CAI', 'CAU'));
    expect(pieceOn(state, 'CAU')).toMatchObject({ kind: 'Pawn', side: 'IA' });
  });

  it('C2: a pawn outside Tam2 field only steps forward', () => {
    const state = initial('IA');
    expect(targets(state, 'KAI')).toEqual(['KY']);
    expect(rejection(state, move('KAI', 'KAU'))).toMatchObject({ code: 'ILLEGAL_MOVE', message: expect.stringContaining('cannot reach KAU') });
  });

  it('C3: a pawn in Tam2 field may step two forward, into water with a cast', () => {
    let state = initial('A');
    expect(targets(state, 'NI')).toEqual(sorted(['NU', 'NE', 'NO', 'LI', 'TI']));
    state = play(state, move('NI', 'NO'));
    expect(engine.pendingChance(state)).toEqual({ label: 'SticksCast', ranges: [2, 2, 2, 2, 2] });
    state = cast(state, 3);
    expect(pieceOn(state, 'NO')).toMatchObject({ kind: 'Pawn', side: 'A' });
  });

  it('C4: a chariot steps on its own pawn in Tam2 field and leaps diagonally without a cast', () => {
    const state = initial('IA');
    expect(targets(state, 'NIA')).toEqual(sorted(['KIA', 'NAI', 'ZIA']));
    expect(rejection(state, move('NIA', 'NAI'))).toMatchObject({ message: expect.stringContaining('your own piece') });
    const after = play(state, move('NIA', 'KO', 'NAI'));
    expect(engine.pendingChance(after)).toBeNull();
    expect(pieceOn(after, 'KO')).toMatchObject({ kind: 'Chariot' });
    expect(rejection(state, move('NIA', 'ZO', 'NAI'))).toMatchObject({ code: 'ILLEGAL_MOVE', message: expect.stringContaining('Tam2 can never be captured') });
  });

  it('C5: a horse leaps, may land in water with a cast, and may U-turn to its origin', () => {
    const state = initial('IA');
    expect(targets(state, 'LIA')).toEqual(['TAI']);
    expect(pieceOn(play(state, move('LIA', 'LO', 'TAI')), 'LO')).toMatchObject({ kind: 'Horse' });
    expect(engine.pendingChance(play(state, move('LIA', 'XO', 'TAI')))).not.toBeNull();
    const uTurn = play(state, move('LIA', 'LIA', 'TAI'));
    expect(uTurn.board).toEqual(state.board);
    expect(uTurn.toMove).toBe(1);
  });

  it('C6: a tiger stepping on a pawn in Tam2 field plans its ranging leg', () => {
    const state = initial('IA');
    expect(intents(state, 'TAU').filter((i) => i.startsWith('TAU>NAI>'))).toEqual(sorted(['TAU>NAI>KO*', 'TAU>NAI>LY*', 'TAU>NAI>TY*', 'TAU>NAI>TAU*']));
    const all = engine.legalActions(state, 0).filter((a) => a.type === 'move' && a.via);
    const ranging = all.filter((a) => a.type === 'move' && intents(state, a.from).includes(`${a.from}>${a.via}>${a.to}*`));
    expect(ranging).toHaveLength(41);
  });

  it('C7: an officer may capture, step, and U-turn', () => {
    const state = position({ A: 'bO@KA', IA: 'bP@KAI', tam2: null, toMove: 'A' });
    expect(intents(state, 'KA')).toEqual(
      sorted([
        'KA>LA',
        'KA>KE',
        'KA>KI',
        'KA>KU',
        'KA>KO',
        'KA>KY',
        'KA>KAI',
        'KA>KAI>LAI',
        'KA>KAI>KAU*',
        'KA>KAI>KIA*',
        'KA>KAI>KY*',
        'KA>KAI>KO*',
        'KA>KAI>KU*',
        'KA>KAI>KI*',
        'KA>KAI>KE*',
        'KA>KAI>KA*',
      ]),
    );
    expect(engine.legalActions(state, 1)).toHaveLength(16);
  });

  it('C8: a lone pawn has one move', () => {
    const state = position({ IA: 'bO@PIA', A: 'bP@PI', tam2: null, toMove: 'A' });
    expect(engine.legalActions(state, 1)).toEqual([move('PI', 'PU')]);
  });

  it('C9: pawns around a cornered Tam2; Tam2 itself cannot move', () => {
    const setup = { A: 'bP@CAI bP@MAI bP@PAI bP@CAU bP@MAU bP@PAU bP@CIA bP@MIA', tam2: 'PIA', toMove: 'A' as const };
    const expected = ['CAI>XAI', 'CAI>CY', 'MAI>MAU>MAI', 'PAI>PAU>PAI', 'MAU>MIA>MAU', 'MAU>PAU>MAU', 'MAU>MAI>MAU', 'PAU>MAU>PAU', 'PAU>PAI>PAU', 'MIA>MAU>MIA'];
    const list = (state: ReturnType<typeof position>) =>
      engine
        .legalActions(state, 1)
        .map((a) => (a.type === 'move' ? [a.from, ...(a.via ? [a.via] : []), a.to].join('>') : a.type))
        .sort();
    expect(list(position(setup, rules({ allowKut2Tam2: false })))).toEqual(sorted(expected));
    expect(list(position(setup))).toEqual(sorted([...expected, 'PAU>PIA>PAU', 'MIA>PIA>MIA']));
  });

  it('C10: a general outside Tam2 field cannot step straight back', () => {
    const state = position({ IA: 'bG@XAU', tam2: 'KA', toMove: 'IA' });
    expect(targets(state, 'XAU')).toEqual(sorted(['XAI', 'ZAI', 'CAI', 'ZAU', 'CAU', 'ZIA', 'CIA']));
    expect(rejection(state, move('XAU', 'XIA')).code).toBe('ILLEGAL_MOVE');
  });

  it('C11: a general in Tam2 field steps to all eight neighbours', () => {
    const state = position({ IA: 'bG@TY', tam2: 'KA', toMove: 'IA' });
    expect(targets(state, 'TY')).toEqual(sorted(['NO', 'TO', 'ZO', 'NY', 'ZY', 'NAI', 'TAI', 'ZAI']));
    expect(pieceOn(play(state, move('TY', 'TAI')), 'TAI')).toMatchObject({ kind: 'General' });
  });

  it('C12: a horse in Tam2 field ranges diagonally from distance two', () => {
    const state = position({ IA: 'bH@ZO bP@XY', A: 'rP@CAI', tam2: 'KA', toMove: 'IA' });
    expect(targets(state, 'ZO')).toEqual(sorted(['NI', 'LE', 'KA', 'CI', 'ME', 'PA', 'NAI', 'KIA', 'CAI', 'LAU']));
    const captured = play(state, move('ZO', 'CAI'));
    expect(engine.pendingChance(captured)).toBeNull();
    expect(captured.capturedPiles[0]).toEqual([{ kind: 'Pawn', colour: 'red' }]);
    expect(rejection(state, move('ZO', 'MAU')).code).toBe('ILLEGAL_MOVE');
    expect(rejection(state, move('ZO', 'XY')).code).toBe('ILLEGAL_MOVE');
    expect(intents(state, 'ZO').some((i) => i.startsWith('ZO>KA>'))).toBe(true);
  });

  it('C13: a shaman in Tam2 field jumps at most one piece', () => {
    const state = position({ IA: 'bS@ZO bP@ZE', A: 'rP@ZU rP@ZI', tam2: 'KA', toMove: 'IA' });
    expect(intents(state, 'ZO')).toEqual(expect.arrayContaining(['ZO>ZU', 'ZO>ZI']));
    expect(rejection(state, move('ZO', 'ZE')).code).toBe('ILLEGAL_MOVE');
    expect(rejection(state, move('ZO', 'ZA')).code).toBe('ILLEGAL_MOVE');
  });

  it('C14: a pawn double step needs the square between empty', () => {
    const state = position({ IA: 'bP@CAI', A: 'rP@CY', tam2: 'KA', toMove: 'IA' });
    expect(targets(state, 'CAI')).toEqual(sorted(['CY', 'CAU', 'XAI', 'MAI']));
    expect(rejection(state, move('CAI', 'CO')).code).toBe('ILLEGAL_MOVE');
  });

  it('C15: a chariot in Tam2 field leaps diagonally only', () => {
    const state = position({ IA: 'bC@TY', tam2: 'KA', toMove: 'IA' });
    expect(targets(state, 'TY')).toEqual(sorted(['LU', 'XU', 'LAU', 'XAU']));
    expect(rejection(state, move('TY', 'TU')).code).toBe('ILLEGAL_MOVE');
  });

  it('C16: an archer in Tam2 field ranges diagonally only', () => {
    const state = position({ IA: 'bA@XY', tam2: 'KA', toMove: 'IA' });
    expect(targets(state, 'XY')).toEqual(sorted(['ZO', 'TU', 'NI', 'LE', 'KA', 'CAI', 'MAU', 'PIA', 'ZAI', 'TAU', 'NIA', 'CO', 'MU', 'PI']));
    expect(rejection(state, move('XY', 'XO')).code).toBe('ILLEGAL_MOVE');
  });

  it('C17: an officer in Tam2 field ranges orthogonally', () => {
    const state = position({ IA: 'bO@TU', tam2: 'KA', toMove: 'IA' });
    expect(targets(state, 'TU')).toHaveLength(16);
    expect(pieceOn(play(state, move('TU', 'TIA')), 'TIA')).toMatchObject({ kind: 'Officer' });
    expect(pieceOn(play(state, move('TU', 'KU')), 'KU')).toMatchObject({ kind: 'Officer' });
  });

  it('C18: a vessel outside Tam2 field ranges straight forward only', () => {
    const state = position({ IA: 'bV@LY', tam2: 'KA', toMove: 'IA' });
    expect(targets(state, 'LY')).toEqual(sorted(['LO', 'LU', 'LI', 'LE', 'LA']));
    expect(rejection(state, move('LY', 'LAI')).code).toBe('ILLEGAL_MOVE');
  });
});

const CASE1_OPENING = `{一位色:黒}
MAU弓MAIMY橋五    PE巫PIPU無撃裁
CAI兵CAU無撃裁    ME弓CE無撃裁
PAU巫CAUCAI無撃裁    ZA王ZE無撃裁
`;

describe('D. stepping and the stick limit', () => {
  it('D1: a cast too short for the planned square; online may stop nearer, strict must abandon', () => {
    const onlineState = cast(play(afterRecord(CASE1_OPENING), move('MY', 'MA', 'MI')), 1);
    expect(engine.legalActions(onlineState, 0)).toEqual([{ type: 'completeStep', to: 'ME' }, { type: 'abandonStep' }]);
    const abandoned = play(onlineState, { type: 'abandonStep' });
    expect(pieceOn(abandoned, 'MY')).toMatchObject({ kind: 'Archer', side: 'IA' });
    expect(abandoned.capturedPiles[0]).toEqual([]);
    expect(abandoned.toMove).toBe(1);
    const strictState = cast(play(afterRecord(CASE1_OPENING, strict), move('MY', 'MA', 'MI')), 1);
    expect(strictState.phase.name).toBe('move');
    expect(strictState.toMove).toBe(1);
    expect(pieceOn(strictState, 'MY')).toMatchObject({ kind: 'Archer' });
  });

  it('D2: a sufficient cast completes the ranging leg and captures', () => {
    const state = position({ IA: 'bS@CAI', A: 'rC@CA rH@MA', tam2: 'KA', toMove: 'IA' });
    let next = cast(play(state, move('CAI', 'MA', 'CA')), 1);
    next = play(next, { type: 'completeStep', to: 'MA' });
    expect(next.capturedPiles[0]).toEqual([{ kind: 'Horse', colour: 'red' }]);
    expect(pieceOn(next, 'MA')).toMatchObject({ kind: 'Shaman', side: 'IA' });
  });

  it('D3: a fixed second leg needs no cast', () => {
    const next = play(initial('A'), move('PE', 'PU', 'PI'));
    expect(engine.pendingChance(next)).toBeNull();
    expect(pieceOn(next, 'PU')).toMatchObject({ kind: 'Shaman' });
  });

  it('D4: online completes in the planned direction within the cast; strict only on the planned square', () => {
    const setup = { IA: 'bA@MAU bP@MAI', A: 'rP@MA', tam2: 'KA', toMove: 'IA' as const };
    const onlineState = cast(play(position(setup), move('MAU', 'MA', 'MAI')), 3);
    expect(onlineState.phase).toMatchObject({ name: 'stepCompletion', completions: ['MY', 'MO', 'MU'] });
    expect(rejection(onlineState, { type: 'completeStep', to: 'MI' })).toMatchObject({ code: 'ILLEGAL_MOVE', message: expect.stringContaining('at most 3 squares') });
    expect(rejection(onlineState, { type: 'completeStep', to: 'LAI' }).code).toBe('ILLEGAL_MOVE');
    expect(pieceOn(play(onlineState, { type: 'completeStep', to: 'MU' }), 'MU')).toMatchObject({ kind: 'Archer' });
    const strictState = cast(play(position(setup, strict), move('MAU', 'MA', 'MAI')), 3);
    expect(strictState.phase.name).toBe('move');
    expect(pieceOn(strictState, 'MAU')).toMatchObject({ kind: 'Archer' });
  });

  it('D5: a stepping move cannot end on the square it stepped on', () => {
    const state = position({ IA: 'bA@MAU bP@MAI', A: 'rP@MA', tam2: 'KA', toMove: 'IA' });
    expect(rejection(state, move('MAU', 'MAI', 'MAI'))).toMatchObject({ code: 'ILLEGAL_MOVE', message: expect.stringContaining('cannot end on the square it stepped on') });
  });

  it('D6: a stepping move may U-turn to its origin', () => {
    const state = position({ A: 'bO@KA', IA: 'bP@KE', tam2: null, toMove: 'A' });
    const next = play(cast(play(state, move('KA', 'KA', 'KE')), 2), { type: 'completeStep', to: 'KA' });
    expect(next.board).toEqual(state.board);
    expect(next.toMove).toBe(0);
  });

  it('D7: a cast of 0 always fails the ranging leg', () => {
    const next = cast(play(initial('A'), move('TE', 'TU', 'NI')), 0);
    expect(next.phase.name).toBe('move');
    expect(next.toMove).toBe(0);
    expect(pieceOn(next, 'TE')).toMatchObject({ kind: 'Tiger', side: 'A' });
  });

  it("D8: Tam2's own square is in its field online, not in strict", () => {
    const setup = { IA: 'bA@LAU', tam2: 'LU', toMove: 'IA' as const };
    const finals = (state: ReturnType<typeof position>) =>
      intents(state, 'LAU')
        .filter((i) => i.startsWith('LAU>LU>'))
        .map((i) => i.slice(7, -1))
        .sort();
    expect(finals(position(setup))).toEqual(sorted(['KI', 'NI', 'TE', 'ZA', 'KO', 'NO', 'TY', 'ZAI', 'XAU', 'CIA']));
    expect(finals(position(setup, strict))).toEqual(sorted(['LI', 'LE', 'LA', 'LO', 'LY', 'LAI', 'LAU', 'LIA', 'KU', 'NU', 'TU', 'ZU', 'XU', 'CU', 'MU', 'PU']));
  });
});

describe('E. water entry', () => {
  it('E1: a failed water entry leaves the piece on its origin', () => {
    const state = position({ A: 'rT@TE', IA: 'bK@PIA', tam2: 'KA', toMove: 'A' });
    const next = cast(play(state, move('TE', 'ZI')), 2);
    expect(pieceOn(next, 'TE')).toMatchObject({ kind: 'Tiger' });
    expect(pieceOn(next, 'ZI')).toBeNull();
    expect(next.toMove).toBe(0);
    expect(next.lastCast).toEqual({ purpose: 'waterEntry', side: 'A', sticks: [1, 1, 0, 0, 0], value: 2 });
  });

  it('E2: a cast of 3 or more enters the water', () => {
    const state = position({ A: 'rT@TE', IA: 'bK@PIA', tam2: 'KA', toMove: 'A' });
    expect(pieceOn(cast(play(state, move('TE', 'ZI')), 3), 'ZI')).toMatchObject({ kind: 'Tiger' });
  });

  it('E3: a vessel enters water without a cast', () => {
    const state = position({ IA: 'bV@ZAI', A: 'rV@ZI', tam2: 'KA', toMove: 'IA' });
    const next = play(state, move('ZAI', 'ZI'));
    expect(engine.pendingChance(next)).toBeNull();
    expect(next.capturedPiles[0]).toEqual([{ kind: 'Vessel', colour: 'red' }]);
  });

  it('E4: a move that starts on water needs no cast', () => {
    const state = position({ A: 'rA@ZU', IA: 'bK@ZAI bP@PIA', tam2: 'KA', toMove: 'A' });
    const next = play(state, move('ZU', 'ZAI'));
    expect(engine.pendingChance(next)).toBeNull();
    expect(next.capturedPiles[1]).toEqual([{ kind: 'King', colour: 'black' }]);
    expect(next.phase.name).toBe('declaration');
  });

  it('E5: the stepping cast comes first, then the water cast', () => {
    const state = position({ A: 'rA@XE rP@XU', IA: 'bK@PIA', tam2: 'KA', toMove: 'A' });
    let next = cast(play(state, move('XE', 'ZO', 'XU')), 1);
    next = play(next, { type: 'completeStep', to: 'ZO' });
    expect(engine.pendingChance(next)?.label).toBe('SticksCast');
    next = cast(next, 3);
    expect(pieceOn(next, 'ZO')).toMatchObject({ kind: 'Archer' });
  });

  it('E6: a drop onto water needs no cast', () => {
    let state = position({ A: 'rP@PE', IA: 'bK@PIA', tam2: 'KA', toMove: 'A' });
    state = { ...state, capturedPiles: [[], [{ kind: 'Archer', colour: 'black' }]] };
    const next = play(state, { type: 'drop', colour: 'black', kind: 'Archer', to: 'ZO' });
    expect(engine.pendingChance(next)).toBeNull();
    expect(pieceOn(next, 'ZO')).toEqual({ kind: 'Archer', colour: 'black', side: 'A' });
    expect(next.capturedPiles[1]).toEqual([]);
  });

  it('E7: an abandoned stepping move never casts for water', () => {
    const state = position({ IA: 'bA@MU bP@MY', A: 'rP@PA', tam2: 'KA', toMove: 'IA' });
    let next = cast(play(state, move('MU', 'ZY', 'MY')), 1);
    next = play(next, { type: 'abandonStep' });
    expect(engine.pendingChance(next)).toBeNull();
    expect(next.toMove).toBe(1);
  });

  it('E8: a capture into water that fails the test captures nothing', () => {
    const state = position({ IA: 'bG@TIA bP@TAU', A: 'rV@ZAI', tam2: 'KA', toMove: 'IA' });
    const next = cast(play(state, move('TIA', 'ZAI', 'TAU')), 0);
    expect(pieceOn(next, 'TIA')).toMatchObject({ kind: 'General' });
    expect(pieceOn(next, 'ZAI')).toMatchObject({ kind: 'Vessel', side: 'A' });
    expect(next.capturedPiles[0]).toEqual([]);
  });
});

describe('F. captures and the General protection', () => {
  it('F1: a piece next to a General in Tam2 field cannot be captured, only stepped on', () => {
    const state = position({ A: 'rG@CI rP@MI', IA: 'bA@MAU', tam2: 'KA', toMove: 'IA' });
    expect(rejection(state, move('MAU', 'MI'))).toMatchObject({ code: 'ILLEGAL_MOVE', message: expect.stringContaining('protected by a General') });
    expect(intents(state, 'MAU')).toEqual(expect.arrayContaining(['MAU>MI>ME*', 'MAU>MI>MA*', 'MAU>MI>PI*', 'MAU>MI>CI*', 'MAU>MI>MU*']));
  });

  it('F2: a General outside Tam2 field protects nothing', () => {
    const state = position({ A: 'rG@CE rP@MI', IA: 'bA@MAU', tam2: 'KA', toMove: 'IA' });
    expect(play(state, move('MAU', 'MI')).capturedPiles[0]).toEqual([{ kind: 'Pawn', colour: 'red' }]);
  });

  it('F3: a General does not protect itself', () => {
    const state = position({ A: 'rG@CI', IA: 'bA@CAU', tam2: 'KA', toMove: 'IA' });
    expect(play(state, move('CAU', 'CI')).capturedPiles[0]).toEqual([{ kind: 'General', colour: 'red' }]);
  });

  it('F4: a General next to Tam2 is in its field and protects', () => {
    const state = position({ A: 'rG@XE rP@XI', IA: 'bA@XAU', tam2: 'ZE', toMove: 'IA' });
    expect(rejection(state, move('XAU', 'XI')).code).toBe('ILLEGAL_MOVE');
    expect(intents(state, 'XAU').some((i) => i.startsWith('XAU>XI>'))).toBe(true);
  });

  it('F5: own pieces and Tam2 can never be captured', () => {
    const state = position({ IA: 'bA@MAU bP@MY', tam2: 'MI', toMove: 'IA' });
    expect(rejection(state, move('MAU', 'MY')).message).toContain('your own piece');
    const tam2 = position({ IA: 'bA@MAU', tam2: 'MI', toMove: 'IA' });
    expect(rejection(tam2, move('MAU', 'MI')).message).toContain('Tam2 can never be captured');
  });
});

describe('G. Tam2 moves', () => {
  const tam2 = (firstSquare: string, to: string, via?: string, stepDuring?: 'firstHalf' | 'secondHalf') =>
    via ? { type: 'moveTam2' as const, firstSquare, to, via, stepDuring } : { type: 'moveTam2' as const, firstSquare, to };

  it('G1: Tam2 may step on a piece during the second half', () => {
    const next = play(initial('IA'), tam2('TU', 'ZE', 'ZI', 'secondHalf'));
    expect(pieceOn(next, 'ZE')).toBe('Tam2');
    expect(pieceOn(next, 'ZO')).toBeNull();
  });

  it('G2: Tam2 may step on a piece during the first half', () => {
    let state = play(initial('IA'), tam2('TU', 'ZE', 'ZI', 'secondHalf'));
    state = play(state, move('LI', 'LU'));
    state = play(state, tam2('NU', 'LO', 'TI', 'firstHalf'));
    expect(pieceOn(state, 'LO')).toBe('Tam2');
  });

  it('G3: Tam2 never ends a step on a piece', () => {
    const state = initial('IA');
    expect(rejection(state, tam2('TU', 'TI')).code).toBe('ILLEGAL_MOVE');
    expect(rejection(state, tam2('TU', 'TE', 'TI', 'secondHalf')).code).toBe('ILLEGAL_MOVE');
    expect(pieceOn(play(state, tam2('TU', 'NE', 'TI', 'secondHalf')), 'NE')).toBe('Tam2');
  });

  it('G4: moving Tam2 right after the opponent moved it: forbidden online, The Futile Move in strict', () => {
    const setup = { IA: 'bP@KAI', A: 'rP@KE', tam2: 'ZO', toMove: 'IA' as const, previousTurnMovedTam2: true };
    expect(rejection(position(setup), tam2('ZU', 'ZI'))).toMatchObject({ code: 'ILLEGAL_MOVE', message: expect.stringContaining('may not move again right away') });
    expect(engine.legalActions(position(setup), 0).some((a) => a.type === 'moveTam2')).toBe(false);
    const next = play(position(setup, strict), tam2('ZU', 'ZI'));
    expect(next.phase).toMatchObject({ name: 'declaration', negativeHands: [{ name: 'FutileMove', value: -3 }] });
  });

  it('G5: a Tam2 move back to its square: free online, The Futile Move in strict', () => {
    const next = play(initial('IA'), tam2('ZU', 'ZO'));
    expect(pieceOn(next, 'ZO')).toBe('Tam2');
    expect(next.toMove).toBe(1);
    expect(next.phase.name).toBe('move');
    const strictNext = play(initial('IA', strict), tam2('ZU', 'ZO'));
    expect(strictNext.phase).toMatchObject({ name: 'declaration', negativeHands: [{ name: 'FutileMove', value: -3 }] });
  });

  it('G6: a boxed-in Tam2 has no move', () => {
    const state = position({ A: 'bP@CAI bP@MAI bP@PAI bP@CAU bP@MAU bP@PAU bP@CIA bP@MIA', tam2: 'PIA', toMove: 'A' });
    expect(engine.legalActions(state, 1).filter((a) => a.type === 'moveTam2')).toEqual([]);
  });
});

describe('H. stepping on Tam2', () => {
  it('H1: online, the vessel pays 5 × stake on stepping on Tam2, even when it then abandons', () => {
    const state = initial('A');
    expect(intents(state, 'ZI').filter((i) => i.startsWith('ZI>ZO>'))).toEqual(
      sorted(['ZI>ZO>XO', 'ZI>ZO>TO', 'ZI>ZO>CO', 'ZI>ZO>NO', 'ZI>ZO>ZY*', 'ZI>ZO>ZAI*', 'ZI>ZO>ZU*', 'ZI>ZO>ZI*', 'ZI>ZO>ZE*']),
    );
    const fixed = play(state, move('ZI', 'NO', 'ZO'));
    expect(engine.pendingChance(fixed)).toBeNull();
    expect(fixed.points).toEqual([25, 15]);
    const planned = play(state, move('ZI', 'ZAI', 'ZO'));
    expect(planned.points).toEqual([25, 15]);
    const abandoned = play(cast(planned, 4), { type: 'abandonStep' });
    expect(abandoned.points).toEqual([25, 15]);
    expect(pieceOn(abandoned, 'ZI')).toMatchObject({ kind: 'Vessel' });
  });

  it('H2: the payment scales with the stake and can end the game at once', () => {
    const state = { ...initial('A'), stake: 4, points: [22, 18] };
    const next = play(state, move('ZI', 'ZAI', 'ZO'));
    expect(next.points).toEqual([40, 0]);
    expect(engine.pendingChance(next)).toBeNull();
    expect(engine.outcome(next)).toMatchObject({ winners: [0], points: [40, 0] });
  });

  it('H3: strict, stepping on Tam2 is the hand The Stepping; ending the season pays for it', () => {
    const state = { ...initial('A', strict), stake: 4 };
    const next = play(state, move('ZI', 'NO', 'ZO'));
    expect(next.points).toEqual([20, 20]);
    expect(next.phase).toMatchObject({ name: 'declaration', negativeHands: [{ name: 'Stepping', value: -5 }] });
    const ended = play(next, { type: 'endSeason' });
    expect(ended.points).toEqual([40, 0]);
    expect(ended.seasonResults[0]).toMatchObject({ pointsDeclared: -20, pointsMoved: -20 });
  });

  it('the house variant exempts a move that is not completed', () => {
    const exempt = rules({ failureToCompleteTheMoveMeansExemptFromKut2Tam2: true });
    const planned = play(initial('A', exempt), move('ZI', 'ZAI', 'ZO'));
    expect(planned.points).toEqual([20, 20]);
    expect(play(cast(planned, 4), { type: 'abandonStep' }).points).toEqual([20, 20]);
    expect(play(cast(planned, 4), { type: 'completeStep', to: 'ZY' }).points).toEqual([25, 15]);
  });

  it('a ruleset may forbid stepping on Tam2', () => {
    expect(rejection(initial('A', rules({ allowKut2Tam2: false })), move('ZI', 'NO', 'ZO')).message).toContain('does not allow stepping on Tam2');
  });
});
