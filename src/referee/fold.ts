import { checkValues, type Engine, type Outcome, type Viewer } from '../engines/kit/index.js';
import { canonicalJson, hashOf } from './canonical.js';
import { chanceView, actionView, type EventViewContext } from './event-view.js';
import type { EngineRegistry } from './engine-registry.js';
import { CoreEvents, eventHash, GENESIS_HASH, isChanceEvent, type ChancePayload, type StoredEvent } from './events.js';
import { clientSeedMix, FairSource, seedCommitment } from './fairness.js';

/** Where and why a stream stopped making sense. */
export class StreamError extends Error {
  constructor(
    readonly seq: number,
    message: string,
  ) {
    super(`event ${seq}: ${message}`);
  }
}

export interface MoveRecord {
  bodyHash: string;
  fromSeq: number;
  toSeq: number;
}

/** Everything the referee knows after reading a stream. */
export interface FoldedGame {
  gameId: string;
  kind: string;
  engine: Engine;
  ruleset: unknown;
  rulesetHash: string;
  seatCount: number;
  seatNames: (string | null)[];
  state: unknown;
  version: number;
  lastHash: string;
  started: boolean;
  mix: string | null;
  /** Next fair-draw counter. */
  counter: number;
  randomSource: 'fair' | 'supplied';
  imported: boolean;
  seedCommitment: string;
  moves: Map<string, MoveRecord>;
  ended: boolean;
  outcome: Outcome | null;
  revealedSeed: string | null;
  /** Fair chance events whose values were recomputed from the seed. */
  fairDrawsChecked: number;
  /** Chance events answered with supplied values (an organizer's deal, an imported record). */
  suppliedUsed: number;
}

export interface FoldOptions {
  /** Recompute every hash (on load and on verification). */
  checkHashes?: boolean;
  /** Recompute fair draws from this seed (the referee knows it; offline, the revealed one). */
  serverSeed?: string | null;
  /** Stop after this seq (state at a point in time). */
  untilSeq?: number;
  /** Called with the state before and after each event. */
  onEvent?: (event: StoredEvent, before: unknown, after: unknown) => void;
}

/** The payload of a stream's first event. */
export interface GameCreatedPayload {
  kind: string;
  ruleset: unknown;
  rulesetHash: string;
  seats: { name: string | null }[];
  seedCommitment: string;
  randomSource: 'fair' | 'supplied';
  imported: boolean;
}

/** A game before any event after GameCreated: what a new game and a fold both start from. */
export function genesis(gameId: string, engine: Engine, created: GameCreatedPayload): FoldedGame {
  return {
    gameId,
    kind: engine.kind,
    engine,
    ruleset: created.ruleset,
    rulesetHash: created.rulesetHash,
    seatCount: created.seats.length,
    seatNames: created.seats.map((s) => s.name ?? null),
    state: engine.init(created.ruleset),
    version: 0,
    lastHash: GENESIS_HASH,
    started: false,
    mix: null,
    counter: 0,
    randomSource: created.randomSource,
    imported: created.imported,
    seedCommitment: created.seedCommitment,
    moves: new Map(),
    ended: false,
    outcome: null,
    revealedSeed: null,
    fairDrawsChecked: 0,
    suppliedUsed: 0,
  };
}

/**
 * Folds a game's event stream into its current state, checking on the way everything the
 * referee guarantees: the hash chain, the ruleset and its hash, the seed commitment, every fair
 * draw, and every action's legality. Live loading, verifyGame, state-at-seq and the offline
 * verifier all use this one function, so what is served is what is verified.
 */
export function foldEvents(registry: EngineRegistry, gameId: string, events: readonly StoredEvent[], opts: FoldOptions = {}): FoldedGame {
  if (events.length === 0) throw new StreamError(1, 'the stream is empty');
  const first = events[0];
  if (first.type !== CoreEvents.GameCreated) throw new StreamError(first.seq, `the first event must be GameCreated, found ${first.type}`);
  const created = first.payload as unknown as GameCreatedPayload;
  const engine = registry.get(created.kind);
  if (!engine) throw new StreamError(1, `unknown game kind "${created.kind}"`);
  const parsed = engine.parseRuleset(created.ruleset);
  if (!parsed.ok) throw new StreamError(1, `the ruleset is invalid: ${parsed.error.message}`);
  if (canonicalJson(parsed.value) !== canonicalJson(created.ruleset)) throw new StreamError(1, 'the ruleset is not in its complete, validated form');
  if (hashOf(created.ruleset) !== created.rulesetHash) throw new StreamError(1, 'the ruleset hash does not match the ruleset');
  const seatCount = engine.seatCount(parsed.value);
  if (!Array.isArray(created.seats) || created.seats.length !== seatCount) throw new StreamError(1, `the game must have ${seatCount} seats`);
  const seed = opts.serverSeed ?? null;
  if (seed !== null && seedCommitment(seed) !== created.seedCommitment) throw new StreamError(1, 'the server seed does not match the published commitment');

  const g = genesis(gameId, engine, { ...created, ruleset: parsed.value });
  let currentMove: MoveRecord | null = null;

  for (const e of events) {
    if (opts.untilSeq !== undefined && e.seq > opts.untilSeq) break;
    if (e.seq !== g.version + 1) throw new StreamError(e.seq, `expected seq ${g.version + 1}`);
    if (e.prevHash !== g.lastHash) throw new StreamError(e.seq, 'prevHash does not match the previous event\'s hash');
    if (opts.checkHashes && eventHash(gameId, e) !== e.hash) throw new StreamError(e.seq, 'the hash does not match the event\'s content (the event was altered)');
    const before = g.state;
    if (e.seq > 1) applyEvent(g, e, seed);
    if (e.moveId) {
      currentMove = { bodyHash: e.bodyHash ?? '', fromSeq: e.seq, toSeq: e.seq };
      g.moves.set(e.moveId, currentMove);
    } else if (currentMove && g.started && e.type !== CoreEvents.SeatJoined) {
      currentMove.toSeq = e.seq;
    }
    g.version = e.seq;
    g.lastHash = e.hash;
    opts.onEvent?.(e, before, g.state);
  }
  return g;
}

function applyEvent(g: FoldedGame, e: StoredEvent, seed: string | null): void {
  const { engine } = g;
  const fail = (msg: string): never => {
    throw new StreamError(e.seq, msg);
  };
  if (g.revealedSeed !== null) fail('no event may follow SeedRevealed');
  if (g.ended && e.type !== CoreEvents.SeedRevealed) fail('only SeedRevealed may follow GameEnded');
  const seatOk = (s: unknown): s is number => Number.isInteger(s) && (s as number) >= 0 && (s as number) < g.seatCount;

  if (isChanceEvent(e)) {
    if (!g.started) fail('random values before the game started');
    const { chance } = e.payload as unknown as ChancePayload;
    const pending = engine.pendingChance(g.state);
    if (!pending) fail('random values where the rules call for none');
    if (pending!.label !== e.type) fail(`expected ${pending!.label}, found ${e.type}`);
    if (canonicalJson(pending!.ranges) !== canonicalJson(chance.ranges)) fail('the ranges drawn from are not the ones the rules call for');
    const bad = checkValues(pending!.ranges, chance.values);
    if (bad) fail(bad);
    if (chance.source === 'fair') {
      if (!chance.counter || chance.counter[0] !== g.counter) fail(`fair draws must continue at counter ${g.counter}`);
      if (seed !== null) {
        const redraw = new FairSource(seed, g.gameId, g.mix!, g.counter).draw(chance.ranges);
        if (canonicalJson(redraw.values) !== canonicalJson(chance.values)) fail(`the values ${JSON.stringify(chance.values)} are not the ones the seed gives (${JSON.stringify(redraw.values)})`);
        if (redraw.counter[1] !== chance.counter![1]) fail('the draw counters do not match the seed');
        g.fairDrawsChecked++;
      }
      g.counter = chance.counter![1];
    } else if (chance.source === 'supplied') {
      if (g.randomSource !== 'supplied') fail('supplied values in a game announced as fairly drawn');
      g.suppliedUsed++;
    } else fail(`unknown random source "${String(chance.source)}"`);
    const next = engine.resolveChance(g.state, chance.values);
    if (!next.ok) fail(`${next.error.code}: ${next.error.message}`);
    else g.state = next.value;
    return;
  }

  switch (e.type) {
    case CoreEvents.SeatJoined: {
      if (g.started) fail('a seat joined after the game started');
      const { seat, name } = e.payload as { seat: number; name: string | null };
      if (!seatOk(seat)) fail('no such seat');
      g.seatNames[seat] = name ?? null;
      return;
    }
    case CoreEvents.GameStarted: {
      if (g.started) fail('the game started twice');
      const { clientSeeds, mix } = e.payload as { clientSeeds: (string | null)[]; mix: string };
      if (!Array.isArray(clientSeeds) || clientSeeds.length !== g.seatCount) fail('one client seed (or null) per seat');
      if (clientSeedMix(clientSeeds) !== mix) fail('the client seed mix does not match the client seeds');
      g.started = true;
      g.mix = mix;
      return;
    }
    case CoreEvents.ActionTaken:
    case CoreEvents.Resigned: {
      if (!g.started) fail('an action before the game started');
      if (engine.pendingChance(g.state)) fail('an action while random values were due');
      if (!seatOk(e.actor)) fail('the actor is not a seat of this game');
      let next;
      if (e.type === CoreEvents.Resigned) next = engine.resign(g.state, e.actor!);
      else {
        const action = engine.parseAction((e.payload as { action: unknown }).action);
        if (!action.ok) fail(`${action.error.code}: ${action.error.message}`);
        next = engine.apply(g.state, e.actor!, (action as { value: unknown }).value);
      }
      if (!next.ok) fail(`${next.error.code}: ${next.error.message}`);
      g.state = (next as { value: unknown }).value;
      return;
    }
    case CoreEvents.GameEnded: {
      const outcome = engine.outcome(g.state);
      if (!outcome) fail('GameEnded while the game goes on');
      if (canonicalJson(outcome) !== canonicalJson((e.payload as { outcome: unknown }).outcome)) fail('the recorded result is not the one the rules give');
      g.ended = true;
      g.outcome = outcome;
      return;
    }
    case CoreEvents.SeedRevealed: {
      if (!g.ended) fail('the seed was revealed before the game ended');
      const revealed = (e.payload as { serverSeed: string }).serverSeed;
      if (seedCommitment(revealed) !== g.seedCommitment) fail('the revealed seed does not match the published commitment');
      if (seed !== null && seed !== revealed) fail('the revealed seed is not the game\'s seed');
      g.revealedSeed = revealed;
      return;
    }
    default:
      fail(`unknown event type ${e.type}`);
  }
}

/** The event as a viewer may see it (hidden chance values and private action details removed). */
export function viewEvent(g: Pick<FoldedGame, 'engine' | 'ended'>, e: StoredEvent, before: unknown, after: unknown, viewer: Viewer): StoredEvent {
  if (g.ended) return e;
  const ctx: EventViewContext = { engine: g.engine, before, after, viewer };
  if (isChanceEvent(e)) return chanceView(ctx, e);
  if (e.type === CoreEvents.ActionTaken) return actionView(ctx, e);
  return e;
}
