import { type ChanceRequest, type Engine, fail, ok, type Outcome, type Result, type RuleViolation, type Seat, step } from '../../../engines/kit/index.js';
import { canonicalJson, hashOf, sameNumbers } from '../canonical.js';
import type { EngineRegistry } from '../engine-registry.js';
import { clientSeedMix, FairSource, seedCommitment } from '../fairness.js';
import { finish, MALFORMED, SLICE, type StoredEvent } from '../stream.js';
import { durationWords } from '../text.js';
import {
  addTime,
  type ClockActor,
  type ClockState,
  deadlineMs,
  elapse,
  everySeatAsked,
  firstOverdue,
  giftRoomMs,
  followGame,
  isoOf,
  declinePause,
  pause,
  requestPause,
  requestResume,
  resume,
  stampMs,
  stampTime,
  storedTimeControl,
  type TimeControl,
  type TimeoutRule,
  timeOut,
} from './clock.js';
import type { Decision, DecideContext, EvolveContext, GameCommand, GameDecider, SeatPlan, DecidedEvent } from './commands.js';
import { type Adjudication, adjudication, type Chance, decodeGameEvent, draftOf, type GameCreatedPayload, type GameEvent, isChanceType, withPlayer } from './events.js';
import { type GameState, genesis } from './state.js';

/**
 * A game's decider: `decide` turns a command into events, `evolve` is the one transition that
 * both deciding and folding go through. Pure: time, the secret seed and supplied values come in
 * as arguments.
 */

export function gameDecider(registry: EngineRegistry): GameDecider {
  return {
    decode: decodeGameEvent,
    found: (id, first, ctx) => found(registry, id, first, ctx),
    evolve,
    follows: followsMove,
    decide: (command, game, ctx) => finish(decide(registry, command, game, ctx)),
    decideInSlices: (command, game, ctx) => decide(registry, command, game, ctx),
  };
}

/**
 * A move's consequences: the draws it called for, the turns the referee then played for
 * auto-played seats (actions without a command id of their own) and the game's end.
 */
const followsMove = (type: string): boolean => isChanceType(type) || type === 'ActionTaken' || type === 'GameEnded' || type === 'SeedRevealed';

const broken = (message: string): Result<never> => fail(MALFORMED, message);

function found(registry: EngineRegistry, gameId: string, first: GameEvent, ctx: EvolveContext): Result<GameState> {
  if (first.type !== 'GameCreated') return broken(`the first event must be GameCreated, found ${first.type}`);
  const created = first.payload;
  const engine = registry.get(created.kind);
  if (!engine) return broken(`unknown game kind "${created.kind}"`);
  const parsed = engine.parseRuleset(created.ruleset);
  if (!parsed.ok) return broken(`the ruleset is invalid: ${parsed.error.message}`);
  if (canonicalJson(parsed.value) !== canonicalJson(created.ruleset)) return broken('the ruleset is not in its complete, validated form');
  if (hashOf(created.ruleset) !== created.rulesetHash) return broken('the ruleset hash does not match the ruleset');
  const seatCount = engine.seatCount(parsed.value);
  if (created.seats.length !== seatCount) return broken(`the game must have ${seatCount} seats`);
  if (ctx.serverSeed !== null && seedCommitment(ctx.serverSeed) !== created.seedCommitment) return broken('the server seed does not match the published commitment');
  if (created.timeControl && created.imported) return broken('an imported record carries no clock: an imported game has no time control');
  return ok(genesis(gameId, engine, { ...created, ruleset: parsed.value }));
}

/** The game after one event, or the rule the event breaks. */
export function evolve(g: GameState, e: GameEvent, stored: Pick<StoredEvent, 'createdAt'>, ctx: EvolveContext): Result<GameState> {
  if (g.revealedSeed !== null) return broken('no event may follow SeedRevealed');
  if (g.ended && e.type !== 'SeedRevealed') return broken('only SeedRevealed may follow GameEnded');
  const owed = owedTurn(g);
  if (owed && !(e.type === 'ActionTaken' && e.actor === owed.seat && e.payload[owed.mark]))
    return broken(
      owed.mark === 'auto' ? `seat ${owed.seat} is auto-played: the referee plays its turn before anything else` : `seat ${owed.seat}'s move is forced: the referee plays it before anything else`,
    );
  if (!g.clock) return CLOCK_EVENTS.has(e.type) ? fail('NO_CLOCK', 'this game has no clock') : transition(g, e, ctx);
  const clock = clocked(g, g.clock, e, stored.createdAt);
  if (!clock.ok) return clock;
  // The transition reads the clocks only for an action's auto-play, which clocked leaves as it was (a TimedOut changes it): no copy of the game with them first.
  const next = transition(g, e, ctx);
  return next.ok ? ok(followed(next.value, clock.value)) : next;
}

const CLOCK_EVENTS = new Set<GameEvent['type']>(['TimedOut', 'TimeAdded', 'PauseRequested', 'ResumeRequested', 'PauseDeclined', 'ClockPaused', 'ClockResumed']);

/** The clock event's own rules and the clocks run up to its stamp, or why it may not come now. */
function clocked(g: GameState, c: ClockState, e: GameEvent, stamp: string): Result<ClockState> {
  const t = stampMs(stamp);
  if (t === null) return broken(`a game with a clock stamps its events in ISO 8601 with milliseconds (UTC), not ${JSON.stringify(stamp)}`);
  if (e.type === 'TimedOut') {
    // Checked first: a timeout asked for too early is refused as such, whatever its stamp.
    const { seat, rule } = e.payload;
    const deadline = isSeat(g, seat) ? deadlineMs(c, seat) : null;
    if (deadline === null) return fail('NOT_TIMED_OUT', `seat ${seat}'s clock is not running`);
    if (t < deadline) return fail('NOT_TIMED_OUT', `seat ${seat}'s time runs out at ${isoOf(deadline)}, after ${stamp}`);
    if (rule !== timeoutRule(g)) return broken(`a timeout in this game is "${timeoutRule(g)}", not "${rule}"`);
  }
  if (c.at !== null && t < stampTime(c.at)) return broken(`the event is stamped ${stamp}, before the event before it (${c.at}): time does not run backwards`);
  const late = firstOverdue(c, t, (seat) => !excused(e, seat));
  if (late !== undefined) {
    const deadline = isoOf(deadlineMs(c, late) ?? t);
    const own = (e.type === 'ActionTaken' || e.type === 'Resigned') && e.actor === late;
    return fail(
      'OUT_OF_TIME',
      own
        ? `seat ${late} ${e.type === 'Resigned' ? 'resigned' : 'acted'} at ${stamp}, after the seat's deadline (${deadline})`
        : `${e.type} at ${stamp}, after seat ${late}'s deadline (${deadline}): the seat's timeout comes first`,
    );
  }
  if (CLOCK_EVENTS.has(e.type) && !g.started) return broken(`${e.type} before the game started`);
  const run = elapse(c, stamp);
  switch (e.type) {
    case 'TimedOut':
      return ok(timeOut(run, e.payload.seat, e.payload.rule));
    case 'TimeAdded': {
      const { seat, ms, by, vacation } = e.payload;
      if (!isSeat(g, seat) || (by !== 'organizer' && !isSeat(g, by))) return fail('INVALID_INPUT', `seats are 0 to ${g.seatCount - 1}`);
      return addTime(run, seat, ms, by, vacation);
    }
    case 'PauseRequested':
    case 'ResumeRequested':
      if (!isSeat(g, e.payload.seat)) return fail('INVALID_INPUT', `seats are 0 to ${g.seatCount - 1}`);
      return e.type === 'PauseRequested' ? requestPause(run, e.payload.seat) : requestResume(run, e.payload.seat);
    case 'PauseDeclined':
      if (!isSeat(g, e.payload.seat)) return fail('INVALID_INPUT', `seats are 0 to ${g.seatCount - 1}`);
      return declinePause(run, e.payload.seat);
    case 'ClockPaused':
      return pause(run, e.payload.by);
    case 'ClockResumed':
      return resume(run, e.payload.by);
    default:
      return ok(run);
  }
}

/** What may still come after a running seat's deadline: its timeout, the organizer's time for it, an adjudication. */
function excused(e: GameEvent, seat: Seat): boolean {
  if (e.type === 'TimedOut') return e.payload.seat === seat;
  if (e.type === 'TimeAdded') return e.payload.by === 'organizer' && e.payload.seat === seat;
  return e.type === 'GameEnded' && e.payload.adjudication !== undefined;
}

/** What a timeout does in this game: auto-play when the engine can and its ruleset says so, else the game is conceded. */
function timeoutRule(g: Pick<GameState, 'engine' | 'ruleset'>): TimeoutRule {
  const { engine } = g;
  return engine.autoAction && engine.roundOf && engine.onTimeout?.(g.ruleset) === 'autoPlay' ? 'autoPlay' : 'concede';
}

/** A turn the referee plays at once, before anything else may happen: an auto-played seat's, else a forced move. */
function owedTurn(g: GameState): { seat: Seat; action: unknown; mark: 'auto' | 'forced' } | null {
  const { clock, engine } = g;
  if (g.ended) return null;
  if (clock?.autoPlayed.includes(true) && !engine.pendingChance(g.state)) {
    const seat = engine.toAct(g.state).find((s) => clock.autoPlayed[s]);
    const action = seat === undefined ? null : engine.autoAction?.(g.state, seat);
    if (seat !== undefined && action !== null && action !== undefined) return { seat, action, mark: 'auto' };
  }
  // The engine answers null at once when its ruleset plays no forced moves.
  const forced = engine.forcedAction?.(g.state);
  return forced && !engine.pendingChance(g.state) ? { ...forced, mark: 'forced' } : null;
}

/** A recorded action that is the forced move the referee would have played, marked as such. */
function forcedIfOwed(g: GameState, e: GameEvent): GameEvent {
  if (e.type !== 'ActionTaken' || !g.engine.forcedAction) return e;
  const owed = owedTurn(g);
  return owed?.mark === 'forced' && owed.seat === e.actor && canonicalJson(owed.action) === canonicalJson(e.payload.action) ? { ...e, payload: { ...e.payload, forced: true } } : e;
}

/** The clocks after the event, from the seats the game now waits for. */
function followed(g: GameState, clock: ClockState): GameState {
  const { engine, state } = g;
  const waiting = !g.started || g.ended || engine.pendingChance(state) ? [] : engine.awaited ? engine.awaited(state) : engine.toAct(state);
  return { ...g, clock: followGame(clock, waiting, engine.roundOf ? engine.roundOf(state) : null) };
}

/** The event's effect on the game itself (its clocks aside). */
function transition(g: GameState, e: GameEvent, ctx: EvolveContext): Result<GameState> {
  const { engine } = g;
  switch (e.type) {
    case 'GameCreated':
      return broken('GameCreated may only start the stream');
    case 'SeatJoined':
      if (g.started) return broken('a seat joined after the game started');
      if (!isSeat(g, e.payload.seat)) return broken('no such seat');
      return ok({
        ...g,
        seatNames: g.seatNames.map((n, i) => (i === e.payload.seat ? e.payload.name : n)),
        seatPlayers: g.seatPlayers.map((p, i) => (i === e.payload.seat ? (e.payload.player ?? null) : p)),
      });
    case 'GameStarted':
      if (g.started) return broken('the game started twice');
      if (e.payload.clientSeeds.length !== g.seatCount) return broken('one client seed (or null) per seat');
      if (clientSeedMix(e.payload.clientSeeds) !== e.payload.mix) return broken('the client seed mix does not match the client seeds');
      return ok({ ...g, started: true, mix: e.payload.mix });
    case 'ChanceDrawn':
      return drawn(g, e.label, e.payload.chance, ctx);
    case 'ActionTaken':
    case 'Resigned': {
      if (!g.started) return broken('an action before the game started');
      if (!isSeat(g, e.actor)) return broken('the actor is not a seat of this game');
      let next: Result<unknown>;
      if (e.type === 'Resigned') next = step(engine, g.state, { kind: 'resign', seat: e.actor });
      else {
        const auto = e.payload.auto === true;
        if (auto !== (g.clock?.autoPlayed[e.actor] === true))
          return broken(auto ? `seat ${e.actor} is not auto-played` : `seat ${e.actor} is auto-played until the round ends: the referee plays its turns`);
        if (auto && canonicalJson(engine.autoAction?.(g.state, e.actor) ?? null) !== canonicalJson(e.payload.action)) return broken("the auto-played action is not the one the game's rule gives");
        if (e.payload.forced && canonicalJson(engine.forcedAction?.(g.state)?.action ?? null) !== canonicalJson(e.payload.action)) return broken('the action marked forced is not the only legal one');
        const action = engine.parseAction(e.payload.action);
        next = action.ok ? step(engine, g.state, { kind: 'action', seat: e.actor, action: action.value }) : action;
      }
      if (!next.ok) return next;
      // The referee's own moves (forced, auto-played) are no seat's: they leave the game abortable.
      if (e.type === 'ActionTaken') return ok({ ...g, state: next.value, moved: g.moved || !(e.payload.auto || e.payload.forced) });
      return ok({ ...g, state: next.value, ending: { reason: 'resigned', seat: e.actor } });
    }
    case 'GameEnded': {
      if (e.payload.adjudication) {
        // An organizer's decision (a result entered for the game, a forfeit): taken as given, checked for shape.
        if (!g.started) return broken('a game was adjudicated before it started');
        const { winners, points } = e.payload.outcome;
        if (!Array.isArray(winners) || !winners.every((s) => isSeat(g, s)) || !Array.isArray(points) || points.length !== g.seatCount)
          return broken("the adjudicated outcome does not fit the game's seats");
        return ok({ ...g, ended: true, outcome: e.payload.outcome, ending: { reason: 'adjudicated', why: e.payload.adjudication.reason } });
      }
      const outcome = engine.outcome(g.state);
      if (!outcome) return broken('GameEnded while the game goes on');
      if (canonicalJson(outcome) !== canonicalJson(e.payload.outcome)) return broken('the recorded result is not the one the rules give');
      // A concession (a resignation, a timeout) named its seat already; else the rules ended the game.
      return ok({ ...g, ended: true, outcome, ending: g.ending ?? { reason: 'rules' } });
    }
    case 'GameAborted':
      if (!isSeat(g, e.actor)) return broken('the actor is not a seat of this game');
      if (g.moved) return fail('ABORT_TOO_LATE', 'a seat has moved: the game can no longer be aborted (resign instead)');
      return ok({ ...g, ended: true, ending: { reason: 'aborted', seat: e.actor } });
    case 'SeedRevealed': {
      if (!g.ended) return broken('the seed was revealed before the game ended');
      const revealed = e.payload.serverSeed;
      if (seedCommitment(revealed) !== g.seedCommitment) return broken('the revealed seed does not match the published commitment');
      if (ctx.serverSeed !== null && ctx.serverSeed !== revealed) return broken("the revealed seed is not the game's seed");
      return ok({ ...g, revealedSeed: revealed });
    }
    case 'TimedOut': {
      if (e.payload.rule === 'autoPlay') return ok(g);
      // The seat concedes the whole game, exactly as if it resigned; the ending says it was on time.
      const next = step(engine, g.state, { kind: 'resign', seat: e.payload.seat });
      return next.ok ? ok({ ...g, state: next.value, ending: { reason: 'time', seat: e.payload.seat } }) : next;
    }
    case 'TimeAdded':
    case 'PauseRequested':
    case 'ResumeRequested':
    case 'PauseDeclined':
    case 'ClockPaused':
    case 'ClockResumed':
      return ok(g);
  }
}

const isSeat = (g: GameState, s: number): boolean => Number.isInteger(s) && s >= 0 && s < g.seatCount;

/** A chance event: the draw the rules call for, from the game's fair source or a supplied list. */
function drawn(g: GameState, label: string, chance: Chance, ctx: EvolveContext): Result<GameState> {
  if (!g.started) return broken('random values before the game started');
  const pending = g.engine.pendingChance(g.state);
  if (!pending) return broken('random values where the rules call for none');
  if (pending.label !== label) return broken(`expected ${pending.label}, found ${label}`);
  if (!sameNumbers(pending.ranges, chance.ranges)) return broken('the ranges drawn from are not the ones the rules call for');
  let { counter, fairDrawsChecked, suppliedUsed } = g;
  if (chance.source === 'fair') {
    if (!chance.counter || chance.counter[0] !== g.counter) return broken(`fair draws must continue at counter ${g.counter}`);
    if (ctx.serverSeed !== null) {
      const redraw = new FairSource(ctx.serverSeed, g.gameId, g.mix ?? '', g.counter).draw(chance.ranges);
      if (!sameNumbers(redraw.values, chance.values)) return broken(`the values ${JSON.stringify(chance.values)} are not the ones the seed gives (${JSON.stringify(redraw.values)})`);
      if (redraw.counter[1] !== chance.counter[1]) return broken('the draw counters do not match the seed');
      fairDrawsChecked++;
    }
    counter = chance.counter[1];
  } else if (chance.source === 'supplied') {
    if (g.randomSource !== 'supplied') return broken('supplied values in a game announced as fairly drawn');
    suppliedUsed++;
  } else return broken(`unknown random source "${String(chance.source)}"`);
  const next = step(g.engine, g.state, { kind: 'chance', values: chance.values });
  return next.ok ? ok({ ...g, state: next.value, counter, fairDrawsChecked, suppliedUsed }) : next;
}

// ------------------------------------------------------------------ decide

/** The events a command causes, or a typed rejection; nothing is decided from a refused command. */
function* decide(registry: EngineRegistry, command: GameCommand, game: (GameState & { version: number }) | null, ctx: DecideContext): Generator<void, Result<Decision>> {
  const d = new Deciding(ctx);
  switch (command.type) {
    case 'CreateGame':
    case 'ImportGame': {
      const engine = registry.get(command.kind);
      if (!engine) return fail('INVALID_INPUT', `unknown game kind "${command.kind}"; this referee plays: ${registry.kinds().join(', ')}`);
      return command.type === 'CreateGame' ? d.create(engine, command) : yield* d.import(engine, command);
    }
    case 'JoinSeat':
      if (!game) return fail('NOT_FOUND', 'no such game');
      return d.join(game, command);
    case 'Adjudicate':
      if (!game) return fail('NOT_FOUND', 'no such game');
      if (game.ended) return fail('GAME_OVER', 'the game is over');
      if (!game.started) return fail('GAME_NOT_STARTED', 'the game waits for seats to be taken');
      return d.adjudicate(game, command.outcome, adjudication(command.reason, command.entry));
    case 'TakeAction':
    case 'Resign': {
      if (!game) return fail('NOT_FOUND', 'no such game');
      if (!game.started) return fail('GAME_NOT_STARTED', 'the game waits for seats to be taken');
      if (game.ended) return fail('GAME_OVER', 'the game is over');
      const expected = command.expectedVersion;
      if (expected !== null && expected !== game.version) return fail('VERSION_CONFLICT', `expected version ${expected}, but the game is at version ${game.version}`);
      const event: GameEvent = command.type === 'Resign' ? { type: 'Resigned', actor: command.seat, payload: {} } : parsedAction(game.engine, command.seat, command.action);
      return d.move(game, event, command.moveId, command.bodyHash);
    }
    case 'AbortGame':
      if (!game) return fail('NOT_FOUND', 'no such game');
      if (game.ended) return fail('GAME_OVER', 'the game is over');
      return d.abort(game, command.seat);
    case 'TimeOut':
    case 'AddTime':
    case 'PauseClock':
    case 'ResumeClock':
    case 'DeclinePause': {
      if (!game) return fail('NOT_FOUND', 'no such game');
      if (!game.started) return fail('GAME_NOT_STARTED', 'the game waits for seats to be taken');
      if (game.ended) return fail('GAME_OVER', 'the game is over');
      if (!game.clock) return fail('NO_CLOCK', 'this game has no time control');
      if (command.type === 'TimeOut') return d.timeOut(game, command);
      if (command.type === 'AddTime') return d.addTime(game, command);
      if (command.type === 'DeclinePause') return d.declinePause(game, command.seat);
      return d.pauseOrResume(game, command.type === 'PauseClock' ? 'pause' : 'resume', command.by);
    }
  }
}

function parsedAction(engine: Engine, seat: Seat, input: unknown): GameEvent {
  const parsed = engine.parseAction(input);
  // An unparsable action is refused by evolve with the engine's own words.
  return { type: 'ActionTaken', actor: seat, payload: { action: parsed.ok ? parsed.value : input } };
}

/** One decision in progress: the events so far and the game after them. */
class Deciding {
  private readonly steps: DecidedEvent[] = [];
  private game!: GameState;
  /** When the events are stamped: now, or a timeout's deadline. */
  private stamp: string;

  constructor(private readonly ctx: DecideContext) {
    this.stamp = ctx.now;
  }

  /** Decides on this game; in a timed game time never runs backwards, so a clock behind the last stamp (another instance's) is taken as that stamp. */
  private on(game: GameState): void {
    this.game = game;
    const last = game.clock?.at;
    if (last && stampTime(last) > Date.parse(this.stamp)) this.stamp = last;
  }

  create(engine: Engine, c: Extract<GameCommand, { type: 'CreateGame' }>): Result<Decision> {
    const ruleset = engine.parseRuleset(c.ruleset ?? {});
    if (!ruleset.ok) return ruleset;
    const seatCount = engine.seatCount(ruleset.value);
    const seats: SeatPlan[] = c.seats ?? Array.from({ length: seatCount }, () => ({ name: null, clientSeed: null, taken: true }));
    if (seats.length !== seatCount) return fail('INVALID_INPUT', `this ruleset needs exactly ${seatCount} seats, got ${seats.length}`);
    const players = seats.flatMap((s) => (s.player ? [s.player] : []));
    if (new Set(players).size !== players.length) return fail('PLAYER_ALREADY_SEATED', 'a player holds at most one seat of a game');
    if (seats.some((s) => s.player && !s.taken)) return fail('INVALID_INPUT', 'a seat bound to a player is taken: it cannot be open');
    if (c.rated && (this.ctx.supplied.length > 0 || !seats.every((s) => s.player)))
      return fail('RATED_NEEDS_PLAYERS', 'a rated game is played between players: bind every seat to a player, with fair draws (docs/ratings.md)');
    const timeControl = c.timeControl ? storedTimeControl(c.timeControl) : null;
    if (c.timeControl && !timeControl) return fail('INVALID_INPUT', 'the time control is not one parseTimeControl gives');
    const source = this.ctx.supplied.length > 0 ? 'supplied' : 'fair';
    const created = this.created(engine, ruleset.value, seats, source, false, timeControl);
    this.open(c.gameId, engine, c.rated ? { ...created, rated: true } : created);
    return seats.every((s) => s.taken) ? this.start(seats) : this.done();
  }

  join(game: GameState, c: Extract<GameCommand, { type: 'JoinSeat' }>): Result<Decision> {
    if (game.started || game.ended) return fail('SEAT_TAKEN', 'every seat of this game is taken');
    const open = c.seats.flatMap((s, i) => (s.taken ? [] : [i]));
    const seat = c.seat ?? open[0];
    if (!isSeat(game, seat)) return fail('INVALID_INPUT', `seat must be between 0 and ${game.seatCount - 1}`);
    if (!open.includes(seat)) return fail('SEAT_TAKEN', `seat ${seat} is taken`);
    if (c.player && game.seatPlayers.includes(c.player)) return fail('PLAYER_ALREADY_SEATED', `this player holds seat ${game.seatPlayers.indexOf(c.player)} of this game already`);
    this.on(game);
    const refused = this.apply({ type: 'SeatJoined', payload: withPlayer({ seat, name: c.name }, c.player) });
    if (refused) return refused;
    const seats = c.seats.map((s, i) => (i === seat ? { name: c.name, clientSeed: c.clientSeed, taken: true } : s));
    const decided = seats.every((s) => s.taken) ? this.start(seats) : this.done();
    return decided.ok ? ok({ ...decided.value, seat }) : decided;
  }

  move(game: GameState, event: GameEvent, moveId: string, bodyHash: string): Result<Decision> {
    this.on(game);
    const refused = this.apply(event);
    if (refused) return refused;
    Object.assign(this.steps[0].draft, { moveId, bodyHash });
    return this.settle();
  }

  /** The game ends with an outcome the organizer decided, and its seed is revealed. */
  adjudicate(game: GameState, outcome: Outcome, decided: Adjudication): Result<Decision> {
    this.on(game);
    const refused = this.apply({ type: 'GameEnded', payload: { outcome, adjudication: decided } });
    if (refused) return refused;
    this.apply({ type: 'SeedRevealed', payload: { serverSeed: this.ctx.serverSeed } });
    return this.done();
  }

  /** The seat aborts the game (nobody moved yet), and its seed is revealed: there is nothing left to hide. */
  abort(game: GameState, seat: Seat): Result<Decision> {
    this.on(game);
    const refused = this.apply({ type: 'GameAborted', actor: seat, payload: { seat } });
    if (refused) return refused;
    this.apply({ type: 'SeedRevealed', payload: { serverSeed: this.ctx.serverSeed } });
    return this.done();
  }

  /** The seat's deadline passed: stamped at `at`, then the game's rule (auto-play, or the game conceded). */
  timeOut(game: GameState, c: Extract<GameCommand, { type: 'TimeOut' }>): Result<Decision> {
    const at = stampMs(c.at);
    if (at === null) return fail('INVALID_INPUT', `at must be an ISO 8601 time with milliseconds (UTC), as deadlines are given, not ${JSON.stringify(c.at)}`);
    if (!isSeat(game, c.seat)) return fail('INVALID_INPUT', `seats are 0 to ${game.seatCount - 1}`);
    if (at > Date.parse(this.ctx.now)) return fail('NOT_TIMED_OUT', `${c.at} is still to come`);
    this.game = game;
    this.stamp = c.at;
    const refused = this.apply({ type: 'TimedOut', payload: { seat: c.seat, rule: timeoutRule(game) } });
    return refused ?? this.settle();
  }

  addTime(game: GameState, c: Extract<GameCommand, { type: 'AddTime' }>): Result<Decision> {
    this.on(game);
    const room = game.clock && c.by !== 'organizer' && !c.vacation && c.by !== c.seat && isSeat(game, c.seat) ? giftRoomMs(game.clock, c.seat) : null;
    if (room !== null && c.ms > room)
      return fail('GIFT_LIMIT', `seat ${c.seat} may receive ${durationWords(room)} (${room} ms) more from the other seats in this game, not ${durationWords(c.ms)} (${c.ms} ms)`);
    return this.apply({ type: 'TimeAdded', payload: { seat: c.seat, ms: c.ms, by: c.by, vacation: c.vacation } }) ?? this.done();
  }

  /** The organizer pauses (resumes) at once; a seat's request does once every seat asked. */
  pauseOrResume(game: GameState, what: 'pause' | 'resume', by: ClockActor): Result<Decision> {
    this.on(game);
    const done = what === 'pause' ? 'ClockPaused' : 'ClockResumed';
    if (by === 'organizer') return this.apply({ type: done, payload: { by } }) ?? this.done();
    const refused = this.apply({ type: what === 'pause' ? 'PauseRequested' : 'ResumeRequested', actor: by, payload: { seat: by } });
    if (refused) return refused;
    const clock = this.game.clock;
    if (clock && everySeatAsked(clock)) this.apply({ type: done, payload: { by: 'seats' } });
    return this.done();
  }

  /** The seat declines the others' request to pause. */
  declinePause(game: GameState, seat: Seat): Result<Decision> {
    this.on(game);
    return this.apply({ type: 'PauseDeclined', actor: seat, payload: { seat } }) ?? this.done();
  }

  /** A record replayed entry by entry through the same transition as live play. */
  *import(engine: Engine, c: Extract<GameCommand, { type: 'ImportGame' }>): Generator<void, Result<Decision>> {
    const { record } = c;
    if (!Array.isArray(record.entries) || (record.seatNames !== undefined && !Array.isArray(record.seatNames))) return fail('INVALID_INPUT', 'the record gives no list of entries');
    const ruleset = engine.parseRuleset(record.ruleset);
    if (!ruleset.ok) return ruleset;
    const seats = Array.from({ length: engine.seatCount(ruleset.value) }, (_, i) => ({ name: record.seatNames?.[i] || null, clientSeed: null, taken: true }));
    this.open(c.gameId, engine, this.created(engine, ruleset.value, seats, 'supplied', true));
    this.apply({ type: 'GameStarted', payload: { clientSeeds: seats.map(() => null), mix: clientSeedMix(seats.map(() => null)) } });
    for (let i = 0; i < record.entries.length; i++) {
      const entry = record.entries[i];
      const where = record.labels?.[i] ?? `entry ${i + 1}`;
      const pending = engine.pendingChance(this.game.state);
      let event: GameEvent;
      if (entry.kind === 'chance') {
        if (!pending) return fail('ILLEGAL_MOVE', `${where}: the record gives random values where the rules call for none`);
        event = { type: 'ChanceDrawn', label: pending.label, payload: { chance: { ranges: pending.ranges, values: entry.values, source: 'supplied', ...(pending.hidden ? { hidden: true } : {}) } } };
      } else if (pending) return fail('ILLEGAL_MOVE', `${where}: the record is missing the ${pending.label} before this move`);
      else event = entry.kind === 'resign' ? { type: 'Resigned', actor: entry.seat, payload: {} } : parsedAction(engine, entry.seat, entry.action);
      const refused = this.apply(forcedIfOwed(this.game, event));
      if (refused) return fail(refused.error.code === 'INVALID_INPUT' ? 'INVALID_INPUT' : 'ILLEGAL_MOVE', `${where}: ${refused.error.message}`);
      if ((i + 1) % SLICE === 0) yield;
    }
    return this.end();
  }

  private created(engine: Engine, ruleset: unknown, seats: SeatPlan[], randomSource: 'fair' | 'supplied', imported: boolean, timeControl: TimeControl | null = null): GameCreatedPayload {
    const names = seats.map((s) => withPlayer({ name: s.taken ? s.name : null }, s.player));
    const created = { kind: engine.kind, ruleset, rulesetHash: hashOf(ruleset), seats: names, seedCommitment: seedCommitment(this.ctx.serverSeed), randomSource, imported };
    // No clock, no key: games without one keep the payload (and hash) they always had.
    return timeControl ? { ...created, timeControl } : created;
  }

  private open(gameId: string, engine: Engine, created: GameCreatedPayload): void {
    this.game = genesis(gameId, engine, created);
    this.steps.push({ draft: draftOf({ type: 'GameCreated', payload: created }, this.stamp), before: this.game.state, after: this.game.state });
  }

  /** Every seat is taken: mix in the client seeds and draw what the opening needs. */
  private start(seats: SeatPlan[]): Result<Decision> {
    const clientSeeds = seats.map((s) => s.clientSeed);
    const refused = this.apply({ type: 'GameStarted', payload: { clientSeeds, mix: clientSeedMix(clientSeeds) } });
    return refused ?? this.settle();
  }

  /**
   * Resolves every pending chance (supplied values first, then fair draws) and plays the turns of
   * auto-played seats, then ends the game if it is over. Auto-play ends with the round, so this
   * ends even when every seat is auto-played.
   */
  private settle(): Result<Decision> {
    const { engine, gameId } = this.game;
    const source = new FairSource(this.ctx.serverSeed, gameId, this.game.mix ?? '', this.game.counter);
    for (;;) {
      const request = engine.pendingChance(this.game.state);
      const owed = request ? null : owedTurn(this.game);
      if (!request && !owed) return this.end();
      const refused = owed ? this.apply({ type: 'ActionTaken', actor: owed.seat, payload: { action: owed.action, [owed.mark]: true } }) : request && this.draw(request, source);
      if (refused) return refused;
    }
  }

  /** Answers a chance request: supplied values first, then a fair draw. */
  private draw(request: ChanceRequest, source: FairSource): { ok: false; error: RuleViolation } | null {
    const n = this.game.suppliedUsed;
    let chance: Chance;
    if (n < this.ctx.supplied.length) chance = { ranges: request.ranges, values: this.ctx.supplied[n], source: 'supplied' };
    else {
      const drawn = source.draw(request.ranges);
      chance = { ranges: request.ranges, values: drawn.values, source: 'fair', counter: drawn.counter };
    }
    if (request.hidden) chance.hidden = true;
    const refused = this.apply({ type: 'ChanceDrawn', label: request.label, payload: { chance } });
    return refused && { ok: false, error: { code: refused.error.code, message: `${chance.source === 'supplied' ? `supplied ${request.label} #${n + 1}` : request.label}: ${refused.error.message}` } };
  }

  private end(): Result<Decision> {
    const outcome = this.game.engine.outcome(this.game.state);
    if (outcome && !this.game.ended) {
      this.apply({ type: 'GameEnded', payload: { outcome } });
      this.apply({ type: 'SeedRevealed', payload: { serverSeed: this.ctx.serverSeed } });
    }
    return this.done();
  }

  private done(): Result<Decision> {
    return ok({ game: this.game, steps: this.steps });
  }

  /** Evolves the game through one event and keeps it; answers the refusal if the rules refuse it. */
  private apply(event: GameEvent): { ok: false; error: RuleViolation } | null {
    const draft = draftOf(event, this.stamp);
    // The referee drew these values from its own seed: no need to draw them again to check.
    const next = evolve(this.game, event, draft, { serverSeed: null });
    if (!next.ok) return next;
    this.steps.push({ draft, before: this.game.state, after: next.value.state });
    this.game = next.value;
    return null;
  }
}
