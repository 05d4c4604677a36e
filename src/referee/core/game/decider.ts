import { type Engine, fail, ok, type Outcome, type Result, type RuleViolation, type Seat, step } from '../../../engines/kit/index.js';
import { canonicalJson, hashOf, sameNumbers } from '../canonical.js';
import type { EngineRegistry } from '../engine-registry.js';
import { clientSeedMix, FairSource, seedCommitment } from '../fairness.js';
import { finish, MALFORMED, SLICE, type StoredEvent } from '../stream.js';
import type { Decision, DecideContext, EvolveContext, GameCommand, GameDecider, SeatPlan, DecidedEvent } from './commands.js';
import { type Chance, decodeGameEvent, draftOf, type GameCreatedPayload, type GameEvent, isChanceType } from './events.js';
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

/** A move's consequences: the draws it called for and the game's end. */
const followsMove = (type: string): boolean => isChanceType(type) || type === 'GameEnded' || type === 'SeedRevealed';

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
  return ok(genesis(gameId, engine, { ...created, ruleset: parsed.value }));
}

/** The game after one event, or the rule the event breaks. */
export function evolve(g: GameState, e: GameEvent, _stored: Pick<StoredEvent, 'type'>, ctx: EvolveContext): Result<GameState> {
  if (g.revealedSeed !== null) return broken('no event may follow SeedRevealed');
  if (g.ended && e.type !== 'SeedRevealed') return broken('only SeedRevealed may follow GameEnded');
  const { engine } = g;
  switch (e.type) {
    case 'GameCreated':
      return broken('GameCreated may only start the stream');
    case 'SeatJoined':
      if (g.started) return broken('a seat joined after the game started');
      if (!isSeat(g, e.payload.seat)) return broken('no such seat');
      return ok({ ...g, seatNames: g.seatNames.map((n, i) => (i === e.payload.seat ? e.payload.name : n)) });
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
        const action = engine.parseAction(e.payload.action);
        next = action.ok ? step(engine, g.state, { kind: 'action', seat: e.actor, action: action.value }) : action;
      }
      return next.ok ? ok({ ...g, state: next.value }) : next;
    }
    case 'GameEnded': {
      if (e.payload.adjudication) {
        // An organizer's decision (a result entered for the game, a forfeit): taken as given, checked for shape.
        if (!g.started) return broken('a game was adjudicated before it started');
        const { winners, points } = e.payload.outcome;
        if (!Array.isArray(winners) || !winners.every((s) => isSeat(g, s)) || !Array.isArray(points) || points.length !== g.seatCount)
          return broken("the adjudicated outcome does not fit the game's seats");
        return ok({ ...g, ended: true, outcome: e.payload.outcome });
      }
      const outcome = engine.outcome(g.state);
      if (!outcome) return broken('GameEnded while the game goes on');
      if (canonicalJson(outcome) !== canonicalJson(e.payload.outcome)) return broken('the recorded result is not the one the rules give');
      return ok({ ...g, ended: true, outcome });
    }
    case 'SeedRevealed': {
      if (!g.ended) return broken('the seed was revealed before the game ended');
      const revealed = e.payload.serverSeed;
      if (seedCommitment(revealed) !== g.seedCommitment) return broken('the revealed seed does not match the published commitment');
      if (ctx.serverSeed !== null && ctx.serverSeed !== revealed) return broken("the revealed seed is not the game's seed");
      return ok({ ...g, revealedSeed: revealed });
    }
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
      return d.adjudicate(game, command.outcome, command.reason);
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

  constructor(private readonly ctx: DecideContext) {}

  create(engine: Engine, c: Extract<GameCommand, { type: 'CreateGame' }>): Result<Decision> {
    const ruleset = engine.parseRuleset(c.ruleset ?? {});
    if (!ruleset.ok) return ruleset;
    const seatCount = engine.seatCount(ruleset.value);
    const seats = c.seats ?? Array.from({ length: seatCount }, () => ({ name: null, clientSeed: null, taken: true }));
    if (seats.length !== seatCount) return fail('INVALID_INPUT', `this ruleset needs exactly ${seatCount} seats, got ${seats.length}`);
    const source = this.ctx.supplied.length > 0 ? 'supplied' : 'fair';
    this.open(c.gameId, engine, this.created(engine, ruleset.value, seats, source, false));
    return seats.every((s) => s.taken) ? this.start(seats) : this.done();
  }

  join(game: GameState, c: Extract<GameCommand, { type: 'JoinSeat' }>): Result<Decision> {
    if (game.started || game.ended) return fail('SEAT_TAKEN', 'every seat of this game is taken');
    const open = c.seats.flatMap((s, i) => (s.taken ? [] : [i]));
    const seat = c.seat ?? open[0];
    if (!isSeat(game, seat)) return fail('INVALID_INPUT', `seat must be between 0 and ${game.seatCount - 1}`);
    if (!open.includes(seat)) return fail('SEAT_TAKEN', `seat ${seat} is taken`);
    this.game = game;
    const refused = this.apply({ type: 'SeatJoined', payload: { seat, name: c.name } });
    if (refused) return refused;
    const seats = c.seats.map((s, i) => (i === seat ? { name: c.name, clientSeed: c.clientSeed, taken: true } : s));
    const decided = seats.every((s) => s.taken) ? this.start(seats) : this.done();
    return decided.ok ? ok({ ...decided.value, seat }) : decided;
  }

  move(game: GameState, event: GameEvent, moveId: string, bodyHash: string): Result<Decision> {
    this.game = game;
    const refused = this.apply(event);
    if (refused) return refused;
    Object.assign(this.steps[0].draft, { moveId, bodyHash });
    return this.settle();
  }

  /** The game ends with an outcome the organizer decided, and its seed is revealed. */
  adjudicate(game: GameState, outcome: Outcome, reason: string): Result<Decision> {
    this.game = game;
    const refused = this.apply({ type: 'GameEnded', payload: { outcome, adjudication: { reason } } });
    if (refused) return refused;
    this.apply({ type: 'SeedRevealed', payload: { serverSeed: this.ctx.serverSeed } });
    return this.done();
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
      const refused = this.apply(event);
      if (refused) return fail(refused.error.code === 'INVALID_INPUT' ? 'INVALID_INPUT' : 'ILLEGAL_MOVE', `${where}: ${refused.error.message}`);
      if ((i + 1) % SLICE === 0) yield;
    }
    return this.end();
  }

  private created(engine: Engine, ruleset: unknown, seats: SeatPlan[], randomSource: 'fair' | 'supplied', imported: boolean): GameCreatedPayload {
    const names = seats.map((s) => ({ name: s.taken ? s.name : null }));
    return { kind: engine.kind, ruleset, rulesetHash: hashOf(ruleset), seats: names, seedCommitment: seedCommitment(this.ctx.serverSeed), randomSource, imported };
  }

  private open(gameId: string, engine: Engine, created: GameCreatedPayload): void {
    this.game = genesis(gameId, engine, created);
    this.steps.push({ draft: draftOf({ type: 'GameCreated', payload: created }, this.ctx.now), before: this.game.state, after: this.game.state });
  }

  /** Every seat is taken: mix in the client seeds and draw what the opening needs. */
  private start(seats: SeatPlan[]): Result<Decision> {
    const clientSeeds = seats.map((s) => s.clientSeed);
    const refused = this.apply({ type: 'GameStarted', payload: { clientSeeds, mix: clientSeedMix(clientSeeds) } });
    return refused ?? this.settle();
  }

  /** Resolves every pending chance (supplied values first, then fair draws), then ends the game if it is over. */
  private settle(): Result<Decision> {
    const { engine, gameId } = this.game;
    const source = new FairSource(this.ctx.serverSeed, gameId, this.game.mix ?? '', this.game.counter);
    for (let request = engine.pendingChance(this.game.state); request; request = engine.pendingChance(this.game.state)) {
      const n = this.game.suppliedUsed;
      let chance: Chance;
      if (n < this.ctx.supplied.length) chance = { ranges: request.ranges, values: this.ctx.supplied[n], source: 'supplied' };
      else {
        const drawn = source.draw(request.ranges);
        chance = { ranges: request.ranges, values: drawn.values, source: 'fair', counter: drawn.counter };
      }
      if (request.hidden) chance.hidden = true;
      const refused = this.apply({ type: 'ChanceDrawn', label: request.label, payload: { chance } });
      if (refused) return fail(refused.error.code, `${chance.source === 'supplied' ? `supplied ${request.label} #${n + 1}` : request.label}: ${refused.error.message}`);
    }
    return this.end();
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
    const draft = draftOf(event, this.ctx.now);
    // The referee drew these values from its own seed: no need to draw them again to check.
    const next = evolve(this.game, event, draft, { serverSeed: null });
    if (!next.ok) return next;
    this.steps.push({ draft, before: this.game.state, after: next.value.state });
    this.game = next.value;
    return null;
  }
}
