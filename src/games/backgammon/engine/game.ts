/** The referee's state machine (docs/rules/backgammon.md §3, §4, §8–§12): turns, the cube, resignations, scoring, matches. */
import { checkValues, fail, ok, type ChanceRequest, type Result, type Seat } from '../../../engines/kit/index.js';
import { anyStep, BAR, CHECKERS_PER_SIDE, OFF, followDice, generatePlays, homeBoardClosed, startingCheckers, type CheckerMove, type LegalPlay } from './board.js';
import type { ResignationLevel } from './ids.js';
import { CUBE_LIMIT } from './parse.js';
import type { BackgammonAction, BackgammonRuleset, BackgammonState, GameEnd, GameResult } from './types.js';

export const SEAT_NAMES = ['White', 'Black'] as const;
const LEVEL_VALUE: Record<ResignationLevel, number> = { single: 1, gammon: 2, backgammon: 3 };
const LEVELS: ResignationLevel[] = ['single', 'gammon', 'backgammon'];

const other = (seat: Seat): Seat => 1 - seat;

export function initialState(ruleset: BackgammonRuleset): BackgammonState {
  return newGame({ ruleset, score: [0, 0], games: [], gameNumber: 0, crawfordDone: false, lastTurn: null, matchWinner: null }, false);
}

/** What a new game of the match resets; everything else carries over from the game before. */
type PerGame =
  | 'crawfordGame'
  | 'board'
  | 'phase'
  | 'turn'
  | 'dice'
  | 'cube'
  | 'cubeTurned'
  | 'pendingDouble'
  | 'resignation'
  | 'rejectedResignation'
  | 'beaversUsed'
  | 'automaticDoublesUsed'
  | 'rolls';

function newGame(s: Omit<BackgammonState, PerGame>, crawfordGame: boolean): BackgammonState {
  return {
    ...s,
    gameNumber: s.gameNumber + 1,
    crawfordGame,
    board: [startingCheckers(), startingCheckers()],
    phase: 'opening-roll',
    turn: 0,
    dice: null,
    cube: { value: 1, owner: null },
    cubeTurned: false,
    pendingDouble: null,
    resignation: null,
    rejectedResignation: null,
    beaversUsed: 0,
    automaticDoublesUsed: 0,
    rolls: [0, 0],
  };
}

export function pendingChance(s: BackgammonState): ChanceRequest | null {
  if (s.phase === 'opening-roll') return { label: 'OpeningRoll', ranges: [6, 6] };
  if (s.phase === 'rolling') return { label: 'DiceRolled', ranges: [6, 6] };
  return null;
}

export function resolveChance(s: BackgammonState, values: number[]): Result<BackgammonState> {
  const pending = pendingChance(s);
  if (!pending) return fail('INVALID_INPUT', 'no dice are waiting to be rolled');
  const bad = checkValues(pending.ranges, values);
  if (bad) return fail('INVALID_INPUT', `${pending.label}: ${bad}`);
  const [a, b] = [values[0] + 1, values[1] + 1];
  if (s.phase === 'rolling') {
    const rolls: [number, number] = [...s.rolls];
    rolls[s.turn]++;
    return ok(startPlay({ ...s, dice: [a, b], rolls }));
  }
  // Opening roll: values[0] is White's die, values[1] Black's.
  if (a === b) {
    const r = s.ruleset;
    const cubeRoom = s.cube.value * 2 <= cubeLimit(r);
    if (r.cubeEnabled && s.automaticDoublesUsed < r.automaticDoubles && cubeRoom) {
      return ok({ ...s, cube: { value: s.cube.value * 2, owner: null }, automaticDoublesUsed: s.automaticDoublesUsed + 1 });
    }
    return ok(s);
  }
  const starter: Seat = a > b ? 0 : 1;
  if (s.ruleset.openingRoll === 'reroll-both-dice') return ok({ ...s, turn: starter, phase: 'rolling' });
  return ok(startPlay({ ...s, turn: starter, dice: [Math.max(a, b), Math.min(a, b)], rolls: starter === 0 ? [1, 0] : [0, 1] }));
}

export const cubeLimit = (r: BackgammonRuleset): number => r.maxCube ?? CUBE_LIMIT;

/**
 * The legal plays of each state that has been asked, kept while the state lives. States are never
 * changed, so a state's plays never change: a forced-move check (asked at every event folded when
 * the ruleset has forced moves), the seat's legal actions and a play that uses fewer dice than
 * rolled all ask for the same state.
 */
const playsOfState = new WeakMap<BackgammonState, readonly LegalPlay[]>();

/** Legal plays of the player on roll with the current dice. */
export function currentPlays(s: BackgammonState): readonly LegalPlay[] {
  if (s.phase !== 'awaiting-play' || !s.dice) return [];
  let plays = playsOfState.get(s);
  if (plays === undefined) playsOfState.set(s, (plays = generatePlays(s.board[s.turn], s.board[other(s.turn)], s.dice[0], s.dice[1])));
  return plays;
}

/** The only legal play, when the ruleset has forced plays made for the mover (docs/rules/backgammon.md §13 `autoPlayForced`: exactly one legal final position). */
export function forcedAction(s: BackgammonState): { seat: Seat; action: BackgammonAction } | null {
  if (!s.ruleset.autoPlayForced || s.phase !== 'awaiting-play' || s.resignation) return null;
  const plays = currentPlays(s);
  return plays.length === 1 ? { seat: s.turn, action: { type: 'play', moves: plays[0].moves.map(({ from, to }) => ({ from, to })) } } : null;
}

/** Dice are on the table: play them, or pass at once when nothing can be played (docs/rules/backgammon.md §5.5). */
function startPlay(s: BackgammonState): BackgammonState {
  const next: BackgammonState = { ...s, phase: 'awaiting-play' };
  if (anyStep(s.board[s.turn], s.board[other(s.turn)], s.dice![0], s.dice![1])) return next;
  return endTurn({ ...next, lastTurn: { seat: s.turn, dice: s.dice, moves: [], passed: true } });
}

function endTurn(s: BackgammonState): BackgammonState {
  return beginTurn({ ...s, dice: null, rejectedResignation: null, cubeTurned: false }, other(s.turn));
}

function closedOut(s: BackgammonState, seat: Seat): boolean {
  return s.board[seat][BAR] > 0 && homeBoardClosed(s.board[other(seat)]);
}

function beginTurn(s: BackgammonState, seat: Seat): BackgammonState {
  const next: BackgammonState = { ...s, turn: seat, phase: 'awaiting-roll' };
  if (mayDouble(next, seat)) return next;
  if (s.ruleset.skipRollWhenClosedOut && closedOut(next, seat)) {
    return endTurn({ ...next, lastTurn: { seat, dice: null, moves: [], passed: true } });
  }
  return s.ruleset.autoRoll ? { ...next, phase: 'rolling' } : next;
}

/** Whether `seat` may offer a double now (docs/rules/backgammon.md §8.2; Crawford §9.2, Holland §8.7). */
export function mayDouble(s: BackgammonState, seat: Seat): boolean {
  const r = s.ruleset;
  if (!r.cubeEnabled || s.crawfordGame || s.phase !== 'awaiting-roll' || s.turn !== seat || s.cubeTurned) return false;
  if (s.resignation || (s.cube.owner !== null && s.cube.owner !== seat)) return false;
  if (s.cube.value * 2 > cubeLimit(r)) return false;
  return !hollandForbids(s, seat);
}

function hollandForbids(s: BackgammonState, seat: Seat): boolean {
  const r = s.ruleset;
  if (!r.holland || r.matchLength === 0 || !s.crawfordDone) return false;
  const trailing = s.score[seat] < s.score[other(seat)];
  return trailing && (s.rolls[0] < 2 || s.rolls[1] < 2);
}

/** The seat whose decision the game waits for (the answerer of a pending double, else the player on roll). */
function mainSeat(s: BackgammonState): Seat {
  return s.phase === 'double-offered' && s.pendingDouble ? other(s.pendingDouble.by) : s.turn;
}

/** Seats that may act now. */
export function toAct(s: BackgammonState): Seat[] {
  if (s.phase === 'match-over' || pendingChance(s)) return [];
  if (s.resignation) return [other(s.resignation.by)];
  const main = mainSeat(s);
  const bystander = other(main);
  return s.ruleset.resignWhen === 'any-time' && resignLevels(s, bystander).length ? [main, bystander].sort() : [main];
}

/** Seats whose decision the game waits for (their clocks run): not the bystander, who may only offer to resign. */
export function awaited(s: BackgammonState): Seat[] {
  if (s.phase === 'match-over' || pendingChance(s)) return [];
  return [s.resignation ? other(s.resignation.by) : mainSeat(s)];
}

/** Resignation levels `seat` may offer now (docs/rules/backgammon.md §10). */
function resignLevels(s: BackgammonState, seat: Seat): ResignationLevel[] {
  if (s.phase === 'match-over' || pendingChance(s) || s.resignation) return [];
  if (s.ruleset.resignWhen === 'own-turn' && seat !== mainSeat(s)) return [];
  const rejected = s.ruleset.forbidRepeatLowerResignation && s.rejectedResignation?.by === seat ? s.rejectedResignation.level : null;
  return rejected ? LEVELS.filter((l) => LEVEL_VALUE[l] > LEVEL_VALUE[rejected]) : LEVELS;
}

export function legalActions(s: BackgammonState, seat: Seat): BackgammonAction[] {
  if (!toAct(s).includes(seat)) return [];
  if (s.resignation) return [{ type: 'acceptResignation' }, { type: 'rejectResignation' }];
  const actions: BackgammonAction[] = [];
  const isMain = mainSeat(s) === seat;
  if (isMain && s.phase === 'awaiting-roll') {
    actions.push({ type: 'roll' });
    if (mayDouble(s, seat)) actions.push({ type: 'double' });
  } else if (isMain && s.phase === 'awaiting-play') {
    for (const play of currentPlays(s)) actions.push({ type: 'play', moves: play.moves.map(({ from, to }) => ({ from, to })) });
  } else if (isMain && s.phase === 'double-offered') {
    actions.push({ type: 'take' }, { type: 'drop' });
    if (mayBeaver(s)) actions.push({ type: 'beaver' });
    if (mayRaccoon(s)) actions.push({ type: 'raccoon' });
  }
  for (const level of resignLevels(s, seat)) actions.push({ type: 'resign', level });
  return actions;
}

function mayBeaver(s: BackgammonState): boolean {
  const d = s.pendingDouble;
  return !!d && d.stage === 'double' && s.beaversUsed < s.ruleset.beavers && d.value * 2 <= cubeLimit(s.ruleset);
}

function mayRaccoon(s: BackgammonState): boolean {
  const d = s.pendingDouble;
  return !!d && d.stage === 'beaver' && s.ruleset.raccoons && d.value * 2 <= cubeLimit(s.ruleset);
}

const illegal = (message: string) => fail<BackgammonState>('ILLEGAL_MOVE', message);

export function apply(s: BackgammonState, seat: Seat, action: BackgammonAction): Result<BackgammonState> {
  if (s.phase === 'match-over') return fail('GAME_OVER', s.ruleset.matchLength ? 'the match is over' : 'the game is over');
  const pending = pendingChance(s);
  if (pending) return fail('NOT_YOUR_TURN', `nobody may act while the dice are rolled (${pending.label})`);
  if (seat !== 0 && seat !== 1) return fail('INVALID_INPUT', `seat ${seat} does not exist (backgammon has seats 0 and 1)`);

  if (action.type === 'acceptResignation' || action.type === 'rejectResignation') {
    if (!s.resignation) return fail('NO_PENDING_DECISION', 'no resignation has been offered');
    if (seat === s.resignation.by) return fail('NOT_YOUR_TURN', 'your opponent answers your resignation offer');
    return ok(action.type === 'acceptResignation' ? acceptResignation(s) : { ...s, resignation: null, rejectedResignation: s.resignation });
  }
  if (s.resignation) {
    return fail('NOT_YOUR_TURN', `a resignation offer (${s.resignation.level}) must be accepted or rejected by ${SEAT_NAMES[other(s.resignation.by)]} first`);
  }
  if (action.type === 'resign') return offerResignation(s, seat, action.level);

  if (action.type === 'take' || action.type === 'drop' || action.type === 'beaver' || action.type === 'raccoon') {
    const d = s.pendingDouble;
    if (s.phase !== 'double-offered' || !d) return fail('NO_PENDING_DECISION', `no double is waiting for an answer, so you cannot ${action.type}`);
    if (seat === d.by) return fail('NOT_YOUR_TURN', 'your opponent answers your double');
    return answerDouble(s, d, action.type);
  }
  if (s.phase === 'double-offered') return fail('NOT_YOUR_TURN', `${SEAT_NAMES[other(s.pendingDouble!.by)]} must first take or drop the double`);
  if (seat !== s.turn) return fail('NOT_YOUR_TURN', `it is ${SEAT_NAMES[s.turn]}'s turn`);

  switch (action.type) {
    case 'roll':
      if (s.phase !== 'awaiting-roll') return illegal('you have already rolled: play your checkers');
      if (s.ruleset.skipRollWhenClosedOut && closedOut(s, seat)) {
        return ok(endTurn({ ...s, lastTurn: { seat, dice: null, moves: [], passed: true } }));
      }
      return ok({ ...s, phase: 'rolling' });
    case 'double':
      return offerDouble(s, seat);
    case 'play':
      return play(s, seat, action.moves);
    default:
      // parseAction admits only the types above, but replayed or imported entries may carry anything.
      return fail('INVALID_INPUT', `"${String((action as { type?: unknown }).type)}" is not a backgammon action`);
  }
}

function offerDouble(s: BackgammonState, seat: Seat): Result<BackgammonState> {
  const r = s.ruleset;
  if (s.phase !== 'awaiting-roll') return illegal('you may double only at the start of your turn, before rolling');
  if (!r.cubeEnabled) return illegal('this game is played without the doubling cube');
  if (s.crawfordGame) return illegal('nobody may double in the Crawford game');
  if (s.cubeTurned) return illegal('the cube has already been turned this turn: roll now');
  if (s.cube.owner !== null && s.cube.owner !== seat) return illegal('your opponent owns the cube: only the cube owner may redouble');
  if (s.cube.value * 2 > cubeLimit(r)) return illegal(`the cube is at its maximum value (${cubeLimit(r)})`);
  if (hollandForbids(s, seat)) return illegal('Holland rule: after the Crawford game the trailer may double only once each side has played two rolls');
  return ok({ ...s, phase: 'double-offered', pendingDouble: { by: seat, value: s.cube.value * 2, owner: other(seat), stage: 'double' } });
}

function answerDouble(s: BackgammonState, d: NonNullable<BackgammonState['pendingDouble']>, answer: 'take' | 'drop' | 'beaver' | 'raccoon'): Result<BackgammonState> {
  const answerer = other(d.by);
  switch (answer) {
    case 'take': {
      const next: BackgammonState = { ...s, cube: { value: d.value, owner: d.owner }, pendingDouble: null, cubeTurned: true, phase: 'awaiting-roll' };
      return ok(s.ruleset.autoRoll ? { ...next, phase: 'rolling' } : next);
    }
    case 'drop':
      return ok(finishGame(s, d.by, d.value / 2, 'single', 'dropped-double'));
    case 'beaver':
      if (!mayBeaver(s)) return illegal(beaverProblem(s, 'beaver'));
      return ok({ ...s, beaversUsed: s.beaversUsed + 1, pendingDouble: { by: answerer, value: d.value * 2, owner: answerer, stage: 'beaver' } });
    case 'raccoon':
      if (!mayRaccoon(s)) return illegal(beaverProblem(s, 'raccoon'));
      return ok({ ...s, pendingDouble: { by: answerer, value: d.value * 2, owner: answerer, stage: 'raccoon' } });
  }
}

function beaverProblem(s: BackgammonState, what: 'beaver' | 'raccoon'): string {
  const r = s.ruleset;
  const d = s.pendingDouble!;
  if (r.matchLength > 0) return `${what}s are not used in match play`;
  if (what === 'beaver' && r.beavers === 0) return 'beavers are not allowed in this game';
  if (what === 'raccoon' && !r.raccoons) return 'raccoons are not allowed in this game';
  if (what === 'beaver' && d.stage !== 'double') return 'a beaver answers a double, not a beaver or raccoon';
  if (what === 'raccoon' && d.stage !== 'beaver') return 'a raccoon answers a beaver';
  if (what === 'beaver' && s.beaversUsed >= r.beavers) return `the ${r.beavers} beaver(s) allowed in this game are used up`;
  return `the cube would pass its maximum value (${cubeLimit(r)})`;
}

function offerResignation(s: BackgammonState, seat: Seat, level: ResignationLevel): Result<BackgammonState> {
  if (s.ruleset.resignWhen === 'own-turn' && seat !== mainSeat(s)) {
    return fail('NOT_YOUR_TURN', 'you may offer to resign only on your own turn or in answer to a double');
  }
  if (!resignLevels(s, seat).includes(level)) {
    return illegal(`your ${s.rejectedResignation!.level} resignation was just rejected: offer a higher level or play on`);
  }
  return ok({ ...s, resignation: { by: seat, level } });
}

function acceptResignation(s: BackgammonState): BackgammonState {
  const { by, level } = s.resignation!;
  const r = s.ruleset;
  const jacoby = r.jacobyAppliesToResignations && jacobyInForce(s);
  return finishGame({ ...s, resignation: null }, other(by), s.cube.value * (jacoby ? 1 : LEVEL_VALUE[level]), level, 'resignation');
}

const jacobyInForce = (s: BackgammonState): boolean => s.ruleset.matchLength === 0 && s.ruleset.jacoby && s.cube.owner === null;

/** Single, gammon or backgammon, were `loser` to lose now (docs/rules/backgammon.md §11). */
export function lossLevel(s: BackgammonState, loser: Seat): ResignationLevel {
  const side = s.board[loser];
  if (side[OFF] > 0) return 'single';
  const inWinnersHome = side.slice(18, 24).some((n) => n > 0);
  const onBar = s.ruleset.backgammonIncludesBar && side[BAR] > 0;
  return inWinnersHome || onBar ? 'backgammon' : 'gammon';
}

/** Points a game ended by bearing off or a forfeit is worth, Jacoby applied. */
function scoredPoints(s: BackgammonState, level: ResignationLevel): number {
  return s.cube.value * (jacobyInForce(s) ? 1 : LEVEL_VALUE[level]);
}

function play(s: BackgammonState, seat: Seat, moves: CheckerMove[]): Result<BackgammonState> {
  if (s.phase === 'awaiting-roll') return illegal('roll the dice before moving');
  const dice = s.dice!;
  const followed = followDice(s.board[seat], s.board[other(seat)], dice, moves);
  if (!followed.ok) return illegal(followed.problem);
  // Steps that use every die are a legal play whatever else the roll allows: the most dice are
  // asked for (docs/rules/backgammon.md §5.3), and §5.4 only decides which single die is played.
  // Fewer steps need the list of plays.
  const everyDie = moves.length === (dice[0] === dice[1] ? 4 : 2);
  const chosen = everyDie ? followed : currentPlays(s).find((p) => p.key === followed.key);
  if (!chosen) return illegal(whyNotLegal(currentPlays(s), moves.length, dice));
  const board: [number[], number[]] = seat === 0 ? [chosen.mover, chosen.opponent] : [chosen.opponent, chosen.mover];
  const next: BackgammonState = { ...s, board, lastTurn: { seat, dice, moves: followed.moves, passed: false } };
  if (chosen.mover[OFF] === CHECKERS_PER_SIDE) {
    const level = lossLevel(next, other(seat));
    return ok(finishGame(next, seat, scoredPoints(next, level), level, 'bear-off'));
  }
  return ok(endTurn(next));
}

/** The rule a play that follows the dice still breaks (docs/rules/backgammon.md §5.3, §5.4). */
function whyNotLegal(plays: readonly LegalPlay[], used: number, dice: [number, number]): string {
  const most = plays[0].moves.length;
  if (used < most) {
    return dice[0] === dice[1] ? `you must play as many of your four ${dice[0]}s as possible: ${most} can be played` : 'you must use both dice when a play using both exists';
  }
  if (most === 1 && dice[0] !== dice[1]) return `only one die can be played, and it must be the larger one (${Math.max(...dice)}) when either could be`;
  return 'that play does not end in a legal position';
}

function finishGame(s: BackgammonState, winner: Seat, points: number, level: ResignationLevel, endedBy: GameEnd): BackgammonState {
  const r = s.ruleset;
  const score: [number, number] = [...s.score];
  score[winner] += points;
  const result: GameResult = { game: s.gameNumber, winner, points, level, endedBy, cube: s.cube.value, crawford: s.crawfordGame, scoreAfter: score };
  const games = [...s.games, result];
  const over = r.matchLength === 0 || score[winner] >= r.matchLength || endedBy === 'forfeit';
  const ended: BackgammonState = { ...s, games, pendingDouble: null, resignation: null, rejectedResignation: null, dice: null };
  if (over) return { ...ended, phase: 'match-over', matchWinner: winner };
  const crawfordDone = s.crawfordDone || s.crawfordGame;
  const crawfordNext = r.crawford && !crawfordDone && score[winner] === r.matchLength - 1;
  return newGame({ ...ended, score, crawfordDone }, crawfordNext);
}

/**
 * The seat concedes the whole match. Money: this game is lost at what the position would score
 * now (so a player with checkers still back concedes a backgammon). Match: the opponent is
 * brought to the match length.
 */
export function forfeit(s: BackgammonState, seat: Seat): Result<BackgammonState> {
  if (s.phase === 'match-over') return fail('GAME_OVER', 'the match is already over');
  if (seat !== 0 && seat !== 1) return fail('INVALID_INPUT', `seat ${seat} does not exist (backgammon has seats 0 and 1)`);
  const level = lossLevel(s, seat);
  const winner = other(seat);
  const points = Math.max(scoredPoints(s, level), s.ruleset.matchLength - s.score[winner]);
  return ok(finishGame(s, winner, points, level, 'forfeit'));
}

/** The final score as players see it: games' points added, match over when someone reached the length. */
export function finalScore(s: BackgammonState): [number, number] {
  const last = s.games[s.games.length - 1];
  return s.phase === 'match-over' && last ? last.scoreAfter : s.score;
}
