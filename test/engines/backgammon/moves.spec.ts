import { backgammonEngine, legalPlays, playsForPosition, encodePositionId } from '../../../src/games/backgammon/engine/index.js';
import { act, checkers, ok, playText, position } from './helpers.js';

/** The plays on offer, as gnubg notation, sorted. */
const offered = (s: Parameters<typeof legalPlays>[0]) =>
  legalPlays(s)
    .map((p) => p.notation)
    .sort();

describe('entering from the bar', () => {
  it('a checker on the bar must enter before any other checker moves', () => {
    const s = position({ bar: 1, 13: 14 }, { 6: 15 }, 0, [3, 1]);
    expect(offered(s).every((n) => n.startsWith('bar/'))).toBe(true);
    expect(playText(s, 0, '13/10 13/12')).toMatchObject({ ok: false, error: { code: 'ILLEGAL_MOVE', message: /bar must enter/ } });
    expect(ok(playText(s, 0, 'bar/22 13/12')).board[0][21]).toBe(1);
  });

  it('with two checkers on the bar and one entry point open, one enters and the other die is lost', () => {
    // Black holds White's 22-point (Black's 3-point); White rolls 3-5: only 5 enters (on 20).
    const s = position({ bar: 2, 13: 13 }, { 3: 2, 6: 13 }, 0, [3, 5]);
    expect(offered(s)).toEqual(['bar/20']);
    expect(ok(playText(s, 0, 'bar/20')).board[0][24]).toBe(1);
  });

  it('entering against a closed board passes automatically', () => {
    const s = position({ bar: 1, 13: 14 }, { 1: 3, 2: 2, 3: 2, 4: 2, 5: 3, 6: 3 }, 0, [6, 6]);
    expect(s.turn).toBe(1);
    expect(s.lastTurn).toEqual({ seat: 0, dice: [6, 6], moves: [], passed: true });
  });

  it('a checker entered from the bar may continue with the other die, hitting from the bar', () => {
    // Black blot on White's 22-point (Black's 3-point).
    const s = position({ bar: 1, 13: 14 }, { 3: 1, 6: 14 }, 0, [3, 4]);
    expect(offered(s)).toContain('bar/22* 22/18');
    const after = ok(playText(s, 0, 'bar/22 22/18'));
    expect(after.board[1][24]).toBe(1);
    expect(after.lastTurn!.moves).toEqual([
      { from: 'bar', to: 22, hit: true },
      { from: 22, to: 18, hit: false },
    ]);
  });
});

describe('hitting', () => {
  it('a blot on an intermediate landing point is hit', () => {
    // Black blot on White's 7-point (Black's 18-point): 13/7*/5 hits it on the way.
    const s = position({ 13: 15 }, { 18: 1, 24: 14 }, 0, [6, 2]);
    const after = ok(playText(s, 0, '13/7 7/5'));
    expect(after.board[1][24]).toBe(1);
    expect(offered(s)).toContain('13/7* 7/5');
    expect(offered(s)).toContain('13/11 11/5');
  });

  it('a point held by two opposing checkers is closed', () => {
    const s = position({ 13: 15 }, { 18: 2, 24: 13 }, 0, [6, 2]);
    expect(playText(s, 0, '13/7 7/5')).toMatchObject({ ok: false, error: { message: /point 7 is held by the opponent/ } });
    expect(ok(playText(s, 0, '13/11 11/5')).board[0][4]).toBe(1);
  });
});

describe('the maximum-dice and larger-die rules', () => {
  it('both dice must be used when some order allows it, even if the other order strands a die', () => {
    // White's last checker outside is on 9; 6-3: 9/3 then a 3 from 3 to off... docs/rules/backgammon.md §5.3 style:
    // White: one checker on 10, Black blocks 4 (White's 4 = Black's 21) and 7. 10/4 blocked, 10/7 blocked: 6 first
    // (10/4) is closed, 3 first (10/7) is closed -> use another layout: only 3-then-6 works.
    // White checker on 12; Black holds White's 6 (Black 19). 12/6 is closed; 12/9/3 works (3 then 6).
    const s = position({ 12: 1, 1: 14 }, { 19: 2, 24: 13 }, 0, [6, 3]);
    expect(offered(s)).toEqual(['12/9 9/3']);
    expect(playText(s, 0, '12/9')).toMatchObject({ ok: false, error: { message: /must use both dice/ } });
  });

  it('when only one die can be played and either could be, the larger must be played', () => {
    // White on 14 only; Black holds 14-6-3=5? Build: 14/9 (5) open, 14/12 (2) open, but 14/7 (both) and 14/12/7 closed at 7.
    const s = position({ 14: 1, 1: 14 }, { 18: 2, 24: 13 }, 0, [5, 2]);
    // Black's 18-point is White's 7. 14/9/7 and 14/12/7 both land on 7: closed. 9/7 and 12/7: same. Other checkers on 1 cannot move.
    expect(offered(s)).toEqual(['14/9']);
    expect(playText(s, 0, '14/12')).toMatchObject({ ok: false, error: { message: /larger one \(5\)/ } });
  });

  it('when only the smaller die can be played, it must be played', () => {
    const s = position({ 14: 1, 1: 14 }, { 16: 2, 18: 2, 24: 11 }, 0, [5, 2]);
    // 14/9 closed (Black 16 = White 9), 14/12 open, 12/7 closed.
    expect(offered(s)).toEqual(['14/12']);
  });

  it('a double that can be played only partly plays as many as possible', () => {
    // White on 20 with 4-4: 20/16/12 open, 8 held by Black (Black's 17).
    const s = position({ 20: 1, 1: 14 }, { 17: 2, 24: 13 }, 0, [4, 4]);
    expect(offered(s)).toEqual(['20/16 16/12']);
    expect(playText(s, 0, '20/16')).toMatchObject({ ok: false, error: { message: /as many of your four 4s as possible: 2/ } });
    expect(ok(playText(s, 0, '20/16 16/12')).turn).toBe(1);
  });

  it('doubles are played four times', () => {
    const s = position({ 24: 2, 13: 5, 8: 3, 6: 5 }, { 24: 2, 13: 5, 8: 3, 6: 5 }, 0, [3, 3]);
    expect(legalPlays(s).every((p) => p.moves.length === 4)).toBe(true);
    expect(ok(playText(s, 0, '8/5 8/5 6/3 6/3')).board[0][2]).toBe(2);
  });

  it('a roll with no legal move is a pass, recorded without any action', () => {
    const s = position({ 2: 15 }, { 24: 2, 23: 2, 22: 2, 20: 2, 19: 2, 6: 5 }, 0, [1, 1]);
    // 2/1 is open... make both dice blocked: White's 1 = Black's 24 (held).
    expect(s.lastTurn?.passed).toBe(true);
    expect(s.turn).toBe(1);
  });
});

describe('bearing off', () => {
  it('exact bear-off and a higher die from the highest point only', () => {
    const s = position({ 5: 1, 3: 1 }, { 1: 15 }, 0, [6, 4]);
    // 6 bears off from 5 (the highest point); 4 moves 5/1 or, after 5/off, bears off 3.
    expect(offered(s)).toEqual(['5/1 3/off', '5/off 3/off'].sort());
  });

  it('a die higher than the highest checker bears off from the highest point', () => {
    const s = position({ 3: 2 }, { 24: 15 }, 0, [6, 5]);
    expect(offered(s)).toEqual(['3/off 3/off']);
  });

  it('a smaller die must move inside the home board when a higher point is occupied', () => {
    const s = position({ 5: 1, 3: 1, 1: 13 }, { 1: 15 }, 0, [4, 4]);
    expect(playText(s, 0, '3/off 5/1')).toMatchObject({ ok: false, error: { message: /only when no checker is on a higher point/ } });
    expect(offered(s)).toContain('5/1 3/off 1/off 1/off');
  });

  it('a checker reaching home with the first die lets the second die bear off', () => {
    const s = position({ 9: 1, 6: 14 }, { 24: 15 }, 0, [3, 6]);
    expect(offered(s)).toContain('9/6 6/off');
    expect(ok(playText(s, 0, '9/6 6/off')).board[0][25]).toBe(1);
  });

  it('bearing off is refused while a checker is outside the home board', () => {
    const s = position({ 9: 1, 6: 14 }, { 1: 15 }, 0, [6, 1]);
    expect(playText(s, 0, '6/off 9/8')).toMatchObject({ ok: false, error: { message: /all your checkers are in your home board/ } });
  });

  it('a checker hit during the bear-off must re-enter and come home before bearing off again', () => {
    const s = position({ bar: 1, 6: 4 }, { 1: 2, 24: 2 }, 0, [6, 5]);
    // bar/19 (6) and 19/14 (5): no bear-off possible.
    expect(offered(s).every((n) => !n.includes('off'))).toBe(true);
  });

  it('bearing off the last checker ends the game at once', () => {
    const s = position({ 1: 1 }, { 24: 15 }, 0, [6, 5], { matchLength: 0, jacoby: false });
    const after = ok(playText(s, 0, '1/off'));
    expect(after.phase).toBe('match-over');
    expect(backgammonEngine.outcome(after)).toMatchObject({ winners: [0], points: [3, 0] });
  });
});

describe('a play is judged by its final position', () => {
  it('steps in another order reaching a legal final position are accepted', () => {
    const s = position({ 24: 2, 13: 5, 8: 3, 6: 5 }, { 24: 2, 13: 5, 8: 3, 6: 5 }, 0, [3, 1]);
    const a = ok(playText(s, 0, '8/5 6/5'));
    const b = ok(playText(s, 0, '6/5 8/5'));
    expect(a.board).toEqual(b.board);
  });

  it('the legal-play list has one entry per final position', () => {
    const s = position({ 24: 2, 13: 5, 8: 3, 6: 5 }, { 24: 2, 13: 5, 8: 3, 6: 5 }, 0, [2, 2]);
    const ids = legalPlays(s).map((p) => p.resultingPositionId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('a play the dice do not give is refused with the broken rule', () => {
    const s = position({ 24: 2, 13: 5, 8: 3, 6: 5 }, { 24: 2, 13: 5, 8: 3, 6: 5 }, 0, [3, 1]);
    expect(playText(s, 0, '13/9')).toMatchObject({ ok: false, error: { code: 'ILLEGAL_MOVE', message: /no die left/ } });
    expect(playText(s, 0, '7/4 6/5')).toMatchObject({ ok: false, error: { message: /no checker on point 7/ } });
    expect(playText(s, 1, '8/5 6/5')).toMatchObject({ ok: false, error: { code: 'NOT_YOUR_TURN' } });
  });
});

describe('plays for a Position ID (analysis helper)', () => {
  it('the opening 3-1 from the start has 16 plays, 8/5 6/5 among them, the result oriented to the opponent', () => {
    const plays = ok(playsForPosition('4HPwATDgc/ABMA', [3, 1]));
    expect(plays).toHaveLength(16);
    const point = plays.find((p) => p.notation === '8/5 6/5')!;
    const mover = checkers({ 24: 2, 13: 5, 8: 2, 6: 4, 5: 2 });
    const start = checkers({ 24: 2, 13: 5, 8: 3, 6: 5 });
    expect(point.resultingPositionId).toBe(encodePositionId([mover, start]));
  });

  it('no legal play gives an empty list; bad input is refused', () => {
    const closed = encodePositionId([checkers({ 1: 3, 2: 2, 3: 2, 4: 2, 5: 3, 6: 3 }), checkers({ bar: 1, 13: 14 })]);
    expect(ok(playsForPosition(closed, [6, 5]))).toEqual([]);
    expect(playsForPosition('4HPwATDgc/ABMA', [7, 1])).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: /1 to 6/ } });
    expect(playsForPosition('4HPwATDgc/ABMA', [3])).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(playsForPosition('not-an-id', [3, 1])).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: /14 characters/ } });
  });

  it('a double lists every distinct result once', () => {
    const plays = ok(playsForPosition('4HPwATDgc/ABMA', [6, 6]));
    expect(plays.map((p) => p.notation)).toContain('24/18 24/18 13/7 13/7');
    expect(new Set(plays.map((p) => p.resultingPositionId)).size).toBe(plays.length);
  });
});

describe('turn order', () => {
  it('after a play the opponent is on roll', () => {
    const s = position({ 24: 2, 13: 5, 8: 3, 6: 5 }, { 24: 2, 13: 5, 8: 3, 6: 5 }, 0, [3, 1]);
    const after = act(s, 0, {
      type: 'play',
      moves: [
        { from: 8, to: 5 },
        { from: 6, to: 5 },
      ],
    });
    expect(backgammonEngine.toAct(after)).toEqual([1]);
    expect(after.phase).toBe('awaiting-roll');
  });
});

describe('forced plays (ruleset autoPlayForced, docs/rules/backgammon.md §13)', () => {
  const forced = { autoPlayForced: true };
  it('offers the one play a roll leaves, and none where there is a choice, before the roll or without the option', () => {
    // One checker on the ace point and 6-5: either die bears it off, one final position.
    const last = position({ 1: 1 }, { 6: 15 }, 0, [6, 5], forced);
    expect(backgammonEngine.forcedAction!(last)).toEqual({ seat: 0, action: { type: 'play', moves: [{ from: 1, to: 'off' }] } });
    expect(backgammonEngine.forcedAction!(position({ 1: 1 }, { 6: 15 }, 0, [6, 5]))).toBeNull();
    expect(backgammonEngine.forcedAction!(position({ 1: 1 }, { 6: 15 }, 0, undefined, forced))).toBeNull();
    expect(backgammonEngine.forcedAction!(position({ 6: 2, 13: 13 }, { 6: 15 }, 0, [3, 1], forced))).toBeNull();
  });

  it('keeps the option out of a ruleset that does not turn it on, so older rulesets keep their form', () => {
    expect(ok(backgammonEngine.parseRuleset({ autoPlayForced: true })).autoPlayForced).toBe(true);
    expect(ok(backgammonEngine.parseRuleset({ autoPlayForced: false }))).not.toHaveProperty('autoPlayForced');
    expect(backgammonEngine.parseRuleset({ autoPlayForced: 'yes' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: 'autoPlayForced must be true or false' } });
  });
});
