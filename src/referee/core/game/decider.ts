import { type ChanceRequest, type Engine, fail, ok, type Outcome, type Result, type RuleViolation, type Seat } from '../../../engines/kit/index.js';
import { hashOf } from '../canonical.js';
import type { EngineRegistry } from '../engine-registry.js';
import { clientSeedMix, FairSource, seedCommitment } from '../fairness.js';
import { finish, SLICE } from '../stream.js';
import { durationWords } from '../text.js';
import { type ClockActor, everySeatAsked, giftRoomMs, stampMs, stampTime, storedTimeControl, type TimeControl } from './clock.js';
import type { Decision, DecideContext, GameCommand, GameDecider, SeatPlan, DecidedEvent } from './commands.js';
import { type Adjudication, adjudication, type Chance, decodeGameEvent, draftOf, type GameCreatedPayload, type GameEvent, isChanceType, withPlayer } from './events.js';
import { evolve, forcedIfOwed, found, isSeat, owedTurn, timeoutRule } from './evolve.js';
import { type GameState, genesis } from './state.js';

/**
 * A game's decider: `decide` turns a command into events, `evolve` (evolve.ts) is the one
 * transition that both deciding and folding go through. Pure: time, the secret seed and supplied
 * values come in as arguments.
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
