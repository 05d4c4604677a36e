import { backgammonEngine as bg, type BackgammonState, type BackgammonView } from '../../../src/games/backgammon/engine/index.js';
import { act, ok, playText, position, roll, ruleset } from './helpers.js';

const view = (s: BackgammonState) => bg.view(s, 'spectator') as BackgammonView;

/** A fresh game after the opening roll (White 3, Black 1: White plays 3-1). */
function opened(rules: Record<string, unknown> = {}): BackgammonState {
  const s = ok(bg.resolveChance(bg.init(ruleset(rules)), [2, 0]));
  return ok(playText(s, 0, '8/5 6/5'));
}

/** White about to bear off the last checker with Black's layout given; cube as given. */
function lastCheckerOff(black: Record<string, number>, cube: { value: number; owner: 0 | 1 | null }, rules: Record<string, unknown> = {}) {
  const s = position({ 1: 1 }, black, 0, undefined, rules);
  return ok(playText(roll({ ...s, cube }, [6, 5]), 0, '1/off'));
}

describe('the opening roll', () => {
  it('each player throws one die; ties are thrown again; the higher die moves first with both numbers', () => {
    const s = bg.init(ruleset());
    expect(bg.pendingChance(s)).toEqual({ label: 'OpeningRoll', ranges: [6, 6] });
    const tie = ok(bg.resolveChance(s, [3, 3]));
    expect(bg.pendingChance(tie)?.label).toBe('OpeningRoll');
    const black = ok(bg.resolveChance(tie, [1, 4]));
    expect(black.turn).toBe(1);
    expect(black.dice).toEqual([5, 2]);
    expect(black.phase).toBe('awaiting-play');
    expect(bg.legalActions(black, 1).some((a) => a.type === 'double')).toBe(false);
  });

  it('automatic doubles turn the centred cube on tied opening throws (money option)', () => {
    const s = ok(bg.resolveChance(bg.init(ruleset({ automaticDoubles: 1 })), [2, 2]));
    expect(s.cube).toEqual({ value: 2, owner: null });
    expect(ok(bg.resolveChance(s, [4, 4])).cube.value).toBe(2);
  });

  it('the reroll-both-dice house rule throws fresh dice for the starter', () => {
    const s = ok(bg.resolveChance(bg.init(ruleset({ openingRoll: 'reroll-both-dice' })), [5, 0]));
    expect(bg.pendingChance(s)?.label).toBe('DiceRolled');
    expect(ok(bg.resolveChance(s, [3, 3])).dice).toEqual([4, 4]);
  });
});

describe('the doubling cube', () => {
  it('a player may double only before rolling, with a centred cube or his own', () => {
    const s = opened();
    expect(bg.legalActions(s, 1)).toEqual(expect.arrayContaining([{ type: 'roll' }, { type: 'double' }]));
    const rolled = roll(s, [6, 5]);
    expect(bg.apply(rolled, 1, { type: 'double' })).toMatchObject({ ok: false, error: { code: 'ILLEGAL_MOVE', message: /before rolling/ } });
    expect(bg.apply(s, 0, { type: 'double' })).toMatchObject({ ok: false, error: { code: 'NOT_YOUR_TURN' } });
  });

  it('a take doubles the cube, the taker owns it, and the doubler then rolls', () => {
    const taken = act(act(opened(), 1, { type: 'double' }), 0, { type: 'take' });
    expect(taken.cube).toEqual({ value: 2, owner: 0 });
    expect(bg.toAct(taken)).toEqual([1]);
    expect(bg.legalActions(taken, 1)).toEqual(expect.arrayContaining([{ type: 'roll' }]));
    expect(bg.legalActions(taken, 1).some((a) => a.type === 'double')).toBe(false);
    // Only the owner may redouble.
    const blackPlayed = ok(playText(roll(taken, [6, 5]), 1, '24/18 18/13'));
    expect(bg.legalActions(blackPlayed, 0)).toContainEqual({ type: 'double' });
    const whitePlayed = ok(playText(roll(blackPlayed, [2, 1]), 0, '13/11 11/10'));
    expect(bg.apply(whitePlayed, 1, { type: 'double' })).toMatchObject({ ok: false, error: { message: /owns the cube/ } });
  });

  it('a dropped double ends the game at the cube value before the double', () => {
    const taken = act(act(opened(), 1, { type: 'double' }), 0, { type: 'take' });
    const blackPlayed = ok(playText(roll(taken, [6, 5]), 1, '24/18 18/13'));
    const dropped = act(act(blackPlayed, 0, { type: 'double' }), 1, { type: 'drop' });
    expect(bg.outcome(dropped)).toMatchObject({ winners: [0], points: [2, 0] });
    expect(dropped.games[0]).toMatchObject({ endedBy: 'dropped-double', points: 2, cube: 2 });
  });

  it('the cube stops at its maximum value', () => {
    const taken = act(act(opened({ maxCube: 2 }), 1, { type: 'double' }), 0, { type: 'take' });
    const blackPlayed = ok(playText(roll(taken, [6, 5]), 1, '24/18 18/13'));
    expect(bg.apply(blackPlayed, 0, { type: 'double' })).toMatchObject({ ok: false, error: { message: /maximum value \(2\)/ } });
  });

  it('a game without the cube offers no double', () => {
    expect(bg.legalActions(opened({ cubeEnabled: false }), 1)).not.toContainEqual({ type: 'double' });
  });
});

describe('beavers and raccoons (money options)', () => {
  it('a beaver accepts and redoubles keeping the cube; declining it costs twice the stake', () => {
    const doubled = act(opened({ beavers: 1, raccoons: true }), 1, { type: 'double' });
    expect(bg.legalActions(doubled, 0)).toContainEqual({ type: 'beaver' });
    const beavered = act(doubled, 0, { type: 'beaver' });
    expect(bg.toAct(beavered)).toEqual([1]);
    expect(act(beavered, 1, { type: 'take' }).cube).toEqual({ value: 4, owner: 0 });
    expect(bg.outcome(act(beavered, 1, { type: 'drop' }))).toMatchObject({ winners: [0], points: [2, 0] });
    const raccooned = act(beavered, 1, { type: 'raccoon' });
    expect(act(raccooned, 0, { type: 'take' }).cube).toEqual({ value: 8, owner: 1 });
  });

  it('without the option there is no beaver', () => {
    const doubled = act(opened(), 1, { type: 'double' });
    expect(bg.legalActions(doubled, 0)).not.toContainEqual({ type: 'beaver' });
    expect(bg.apply(doubled, 0, { type: 'beaver' })).toMatchObject({ ok: false, error: { code: 'ILLEGAL_MOVE', message: /not allowed/ } });
  });
});

describe('scoring a finished game', () => {
  it('single game: the loser has borne off a checker', () => {
    expect(bg.outcome(lastCheckerOff({ 6: 14 }, { value: 2, owner: 1 }))).toMatchObject({ points: [2, 0] });
  });

  it('gammon: the loser has borne off none, times the cube', () => {
    expect(bg.outcome(lastCheckerOff({ 6: 15 }, { value: 2, owner: 1 }))).toMatchObject({ points: [4, 0] });
  });

  it("backgammon: also a checker in the winner's home board or on the bar, times the cube", () => {
    expect(bg.outcome(lastCheckerOff({ 6: 14, 20: 1 }, { value: 2, owner: 1 }))).toMatchObject({ points: [6, 0] });
    expect(bg.outcome(lastCheckerOff({ 6: 14, bar: 1 }, { value: 4, owner: 0 }))).toMatchObject({ points: [12, 0] });
    expect(bg.outcome(lastCheckerOff({ 6: 14, bar: 1 }, { value: 1, owner: null }, { jacoby: false, backgammonIncludesBar: false }))).toMatchObject({ points: [2, 0] });
  });

  it('Jacoby: with a centred cube a gammon counts as a single game in money play', () => {
    expect(bg.outcome(lastCheckerOff({ 6: 15 }, { value: 1, owner: null }))).toMatchObject({ points: [1, 0] });
    expect(bg.outcome(lastCheckerOff({ 6: 15 }, { value: 1, owner: null }, { jacoby: false }))).toMatchObject({ points: [2, 0] });
    expect(bg.outcome(lastCheckerOff({ 6: 15 }, { value: 2, owner: 0 }))).toMatchObject({ points: [4, 0] });
  });
});

describe('resignations', () => {
  it('an accepted resignation scores its level times the cube', () => {
    const s = act(opened(), 1, { type: 'resign', level: 'gammon' });
    expect(bg.toAct(s)).toEqual([0]);
    expect(bg.legalActions(s, 0)).toEqual([{ type: 'acceptResignation' }, { type: 'rejectResignation' }]);
    expect(bg.apply(s, 1, { type: 'roll' })).toMatchObject({ ok: false, error: { code: 'NOT_YOUR_TURN' } });
    expect(bg.outcome(act(s, 0, { type: 'acceptResignation' }))).toMatchObject({ winners: [0], points: [2, 0] });
  });

  it('a rejected resignation lets play go on, and a lower or equal offer may not follow in the same turn', () => {
    const rejected = act(act(opened(), 1, { type: 'resign', level: 'gammon' }), 0, { type: 'rejectResignation' });
    expect(rejected.phase).toBe('awaiting-roll');
    expect(bg.apply(rejected, 1, { type: 'resign', level: 'single' })).toMatchObject({ ok: false, error: { code: 'ILLEGAL_MOVE', message: /higher level/ } });
    expect(act(rejected, 1, { type: 'resign', level: 'backgammon' }).resignation).toEqual({ by: 1, level: 'backgammon' });
  });

  it('a resignation in answer to a double is scored with the cube before the double', () => {
    const doubled = act(opened({ jacoby: false }), 1, { type: 'double' });
    const resigned = act(act(doubled, 0, { type: 'resign', level: 'gammon' }), 1, { type: 'acceptResignation' });
    expect(bg.outcome(resigned)).toMatchObject({ winners: [1], points: [0, 2] });
  });

  it("resigning is only on one's own turn unless resignWhen is any-time", () => {
    expect(bg.apply(opened(), 0, { type: 'resign', level: 'single' })).toMatchObject({ ok: false, error: { code: 'NOT_YOUR_TURN' } });
    const anyTime = opened({ resignWhen: 'any-time' });
    expect(bg.toAct(anyTime)).toEqual([0, 1]);
    expect(act(anyTime, 0, { type: 'resign', level: 'single' }).resignation).toEqual({ by: 0, level: 'single' });
  });
});

describe('matches', () => {
  /** White doubles at once and Black drops: White scores the cube. */
  const whiteWinsByDrop = (s: BackgammonState) => {
    const white = ok(bg.resolveChance(s, [2, 0]));
    const blackTurn = ok(playText(white, 0, '8/5 6/5'));
    const whiteTurn = ok(playText(roll(blackTurn, [2, 1]), 1, '13/11 11/10'));
    return act(act(whiteTurn, 0, { type: 'double' }), 1, { type: 'drop' });
  };

  it('the Crawford game has no cube; the games after it do', () => {
    const s = whiteWinsByDrop(bg.init(ruleset({ matchLength: 2 })));
    expect(s.score).toEqual([1, 0]);
    expect(s.crawfordGame).toBe(true);
    const crawford = ok(playText(ok(bg.resolveChance(s, [0, 3])), 1, '13/9 6/5'));
    expect(bg.legalActions(crawford, 0)).not.toContainEqual({ type: 'double' });
    expect(bg.apply(crawford, 0, { type: 'double' })).toMatchObject({ ok: false, error: { message: /Crawford game/ } });
    // Black wins the Crawford game by resignation: 1-1, post-Crawford, the cube is back.
    const post = act(act(crawford, 0, { type: 'resign', level: 'single' }), 1, { type: 'acceptResignation' });
    expect(post.score).toEqual([1, 1]);
    expect(post.crawfordGame).toBe(false);
    expect(view(post).postCrawford).toBe(true);
    const opened2 = ok(playText(ok(bg.resolveChance(post, [2, 0])), 0, '8/5 6/5'));
    expect(bg.legalActions(opened2, 1)).toContainEqual({ type: 'double' });
  });

  it('without the Crawford rule the cube stays available', () => {
    const s = whiteWinsByDrop(bg.init(ruleset({ matchLength: 2, crawford: false })));
    expect(s.crawfordGame).toBe(false);
  });

  it('the Holland rule keeps the trailer from doubling early after the Crawford game', () => {
    const s = whiteWinsByDrop(bg.init(ruleset({ matchLength: 2, holland: true })));
    const post = act(act(ok(playText(ok(bg.resolveChance(s, [0, 3])), 1, '13/9 6/5')), 0, { type: 'resign', level: 'single' }), 1, { type: 'acceptResignation' });
    expect(post.score).toEqual([1, 1]);
    // Tied score: nobody trails, so the rule does not bite; make Black trail instead.
    const trailing = { ...post, score: [1, 0] as [number, number] };
    const opened2 = ok(playText(ok(bg.resolveChance(trailing, [2, 0])), 0, '8/5 6/5'));
    expect(bg.apply(opened2, 1, { type: 'double' })).toMatchObject({ ok: false, error: { message: /Holland/ } });
  });

  it('a match is one engine game: the score carries over and the outcome lists every game', () => {
    const first = whiteWinsByDrop(bg.init(ruleset({ matchLength: 2, crawford: false })));
    expect(bg.outcome(first)).toBeNull();
    expect(bg.pendingChance(first)?.label).toBe('OpeningRoll');
    expect(first.gameNumber).toBe(2);
    const done = bg.outcome(whiteWinsByDrop(first))!;
    expect(done).toMatchObject({ winners: [0], points: [2, 0], summary: 'White wins the 2-point match 2-0' });
    expect((done.details as { games: unknown[] }).games).toEqual([
      expect.objectContaining({ game: 1, winner: 0, points: 1, endedBy: 'dropped-double', scoreAfter: [1, 0] }),
      expect.objectContaining({ game: 2, winner: 0, points: 1, endedBy: 'dropped-double', scoreAfter: [2, 0] }),
    ]);
    expect(bg.apply(whiteWinsByDrop(first), 0, { type: 'roll' })).toMatchObject({ ok: false, error: { code: 'GAME_OVER' } });
  });

  it('conceding the match (engine resign) hands it to the opponent', () => {
    const s = ok(bg.resign(opened(), 1));
    expect(bg.outcome(s)).toMatchObject({ winners: [0] });
    const match = ok(bg.resign(whiteWinsByDrop(bg.init(ruleset({ matchLength: 5 }))), 0));
    expect(bg.outcome(match)).toMatchObject({ winners: [1], summary: 'Black wins the 5-point match 5-1 by forfeit' });
  });
});

describe('views carry the gnubg IDs', () => {
  it("the spec's 5-point match sequence: double pending, taken, gammon resignation offered", () => {
    // Black (player 1) on roll doubles at 0-0 in a 5-point match.
    const base = position({ 24: 2, 13: 5, 8: 3, 6: 5 }, { 24: 2, 13: 5, 8: 3, 6: 5 }, 1, undefined, { matchLength: 5 });
    const doubled = act(base, 1, { type: 'double' });
    expect(view(doubled).matchId).toBe('cBGgAAAAAAAE');
    const taken = act(doubled, 0, { type: 'take' });
    expect(view(taken).matchId).toBe('QQmgAAAAAAAE');
    const whiteOnRoll = { ...taken, turn: 0, cubeTurned: false };
    expect(view(act(whiteOnRoll, 0, { type: 'resign', level: 'gammon' })).matchId).toBe('AUmgAAAAAAAE');
  });

  it('a money game before the roll is MAEAAAAAAAAA with the start position 4HPwATDgc/ABMA', () => {
    const v = view(position({ 24: 2, 13: 5, 8: 3, 6: 5 }, { 24: 2, 13: 5, 8: 3, 6: 5 }, 0));
    expect(v.gnubgId).toBe('4HPwATDgc/ABMA:MAEAAAAAAAAA');
    expect(v.board.sides[0]).toEqual({ points: [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2], bar: 0, off: 0, pipCount: 167 });
    expect(v.board.absolute[23]).toBe(2);
    expect(v.board.absolute[0]).toBe(-2);
  });

  it('autoRoll asks for dice by itself only when the player may not double', () => {
    const s = opened({ autoRoll: true });
    expect(bg.pendingChance(s)).toBeNull();
    expect(bg.legalActions(s, 1)).toEqual(expect.arrayContaining([{ type: 'roll' }, { type: 'double' }]));
    const taken = act(act(s, 1, { type: 'double' }), 0, { type: 'take' });
    expect(bg.pendingChance(taken)).toEqual({ label: 'DiceRolled', ranges: [6, 6] });
    const blackPlayed = ok(playText(ok(bg.resolveChance(taken, [5, 4])), 1, '24/18 18/13'));
    // White owns the cube: he may redouble, so he is asked.
    expect(bg.pendingChance(blackPlayed)).toBeNull();
    const whitePlayed = ok(playText(roll(blackPlayed, [2, 1]), 0, '13/11 11/10'));
    // Black may not double (White owns the cube): dice are rolled at once.
    expect(bg.pendingChance(whitePlayed)?.label).toBe('DiceRolled');
  });

  it('skipRollWhenClosedOut passes a player on the bar against a closed board without rolling', () => {
    const closed = { 1: 3, 2: 2, 3: 2, 4: 2, 5: 3, 6: 3 };
    const white = position({ bar: 1, 13: 14 }, closed, 1, undefined, { skipRollWhenClosedOut: true, cubeEnabled: false });
    const afterBlack = ok(playText(roll(white, [2, 1]), 1, '6/4 5/4'));
    expect(afterBlack.turn).toBe(1);
    expect(afterBlack.lastTurn).toEqual({ seat: 0, dice: null, moves: [], passed: true });
  });
});
