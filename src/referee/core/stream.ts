import { fail, ok, type Result } from '../../engines/kit/index.js';
import { canonicalJson, sha256Hex } from './canonical.js';

/**
 * What every aggregate's stream shares: stored events chained by hash, appended at an expected
 * version, with idempotent command ids. A game is one aggregate; a tournament or any later one
 * brings its own decide/evolve and gets the same chain, appends and offline verification.
 */

/** One row of a stream, as stored, hashed and exported. */
export interface StoredEvent {
  seq: number;
  type: string;
  /** Seat (or participant) that caused it; null for the referee's own events. */
  actor: number | null;
  /** Client command id on the first event of an accepted command. */
  moveId: string | null;
  /** SHA-256 of the command's canonical body (for safe retries). */
  bodyHash: string | null;
  payload: Record<string, unknown>;
  /** ISO 8601 with milliseconds. */
  createdAt: string;
  prevHash: string;
  hash: string;
}

/** An event decided but not yet chained. */
export type DraftEvent = Omit<StoredEvent, 'seq' | 'prevHash' | 'hash'>;

export const GENESIS_HASH = '0'.repeat(64);

/** Events folded or chained between two pauses of a sliced fold or chaining (a few milliseconds of work). */
export const SLICE = 256;

/** hash = SHA-256(prevHash || canonical JSON of the event without its hashes). */
export function eventHash(streamId: string, e: Omit<StoredEvent, 'hash'>): string {
  // The canonical JSON of { gameId, seq, type, actor, moveId, bodyHash, payload, createdAt },
  // members in their sorted order, written by hand: this runs for every event stored and folded.
  let body = member('{', 'actor', e.actor);
  body = member(body, 'bodyHash', e.bodyHash);
  body = member(body, 'createdAt', e.createdAt);
  body = member(body, 'gameId', streamId);
  body = member(body, 'moveId', e.moveId);
  body = member(body, 'payload', e.payload);
  body = member(body, 'seq', e.seq);
  body = member(body, 'type', e.type);
  return sha256Hex(`${e.prevHash}${body}}`);
}

/** `body` (an object's canonical JSON so far, from its "{") with one more member; an undefined value is left out. */
function member(body: string, key: string, value: unknown): string {
  if (value === undefined) return body;
  return `${body.length > 1 ? `${body},` : body}"${key}":${canonicalJson(value)}`;
}

/** Where and why a stream stopped making sense. */
export class StreamError extends Error {
  constructor(
    readonly seq: number,
    message: string,
  ) {
    super(`event ${seq}: ${message}`);
  }
}

/** The events one command stored: a retry with the same id and body answers them again. */
export interface CommandRecord {
  /** Who gave the command: a retry is answered only to them. */
  actor: number | null;
  bodyHash: string;
  fromSeq: number;
  toSeq: number;
}

/** Where a stream stands: the version an append must expect, and the commands it holds. */
export interface StreamHead {
  version: number;
  lastHash: string;
  commands: Map<string, CommandRecord>;
  /** The command the last event belongs to, if its consequences may still follow. */
  lastCommand: CommandRecord | null;
}

/** An aggregate's state with its stream head. */
export type Folded<S> = S & StreamHead;

export const emptyHead = (): StreamHead => ({ version: 0, lastHash: GENESIS_HASH, commands: new Map(), lastCommand: null });

/** The code of a violation that is the stream's own fault, not a rule's: its message stands alone. */
export const MALFORMED = 'MALFORMED_EVENT';

/** Checks of each event type's payload fields, by type: an aggregate's events as its decoder knows them. */
export type PayloadChecks<T extends string> = Record<T, (payload: Record<string, unknown>) => boolean>;

/** A JSON object (not null, not a list): what every event payload and input document is. */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A stored row as one of an aggregate's typed events: a type it knows, with a payload whose fields pass that type's check. */
export function decodeTyped<E extends { type: string }>(aggregate: string, checks: PayloadChecks<E['type']>, e: Pick<StoredEvent, 'type' | 'payload'>): Result<E> {
  const check = checks[e.type as E['type']];
  if (!check) return fail(MALFORMED, `unknown ${aggregate} event type ${e.type}`);
  const payload: unknown = e.payload;
  if (!isObject(payload) || !check(payload)) return fail(MALFORMED, `${e.type} is missing fields or has fields of the wrong type`);
  return ok({ type: e.type, payload } as unknown as E);
}

/** What the generic fold needs of an aggregate. */
export interface Aggregate<S, E, C> {
  /** The typed event of a stored row (recognised by its type), or why it is none of this aggregate's. */
  decode(stored: StoredEvent): Result<E>;
  /** The state the stream's first event founds. */
  found(streamId: string, first: E, ctx: C): Result<S>;
  /** The one transition: the state after an event, or the rule the event breaks. */
  evolve(state: S, event: E, stored: StoredEvent, ctx: C): Result<S>;
  /** Whether an event without a command id belongs to the command before it (its draws, the end). */
  follows(type: string): boolean;
}

/**
 * The head after `events` were appended: version, last hash and command ids. Shared, not
 * copied (streams grow long): a failed append drops the cached stream, so these entries never
 * outlive a write that did not happen.
 */
export function advanceHead(head: StreamHead, events: readonly StoredEvent[], follows: (type: string) => boolean): StreamHead {
  const next: StreamHead = { version: head.version, lastHash: head.lastHash, commands: head.commands, lastCommand: head.lastCommand };
  for (const e of events) appendToHead(next, e, follows);
  return next;
}

/** Moves a head past one event, in place. */
function appendToHead(head: StreamHead, e: StoredEvent, follows: (type: string) => boolean): void {
  if (e.moveId) head.commands.set(e.moveId, (head.lastCommand = { actor: e.actor, bodyHash: e.bodyHash ?? '', fromSeq: e.seq, toSeq: e.seq }));
  else if (head.lastCommand && follows(e.type)) head.lastCommand.toSeq = e.seq;
  else head.lastCommand = null;
  head.version = e.seq;
  head.lastHash = e.hash;
}

/** Chains drafts after the head: each gets its seq, the previous hash and its own. */
export function chainEvents(streamId: string, after: Pick<StreamHead, 'version' | 'lastHash'>, drafts: readonly DraftEvent[]): StoredEvent[] {
  return finish(chainInSlices(streamId, after, drafts));
}

/**
 * The same chaining, pausing (`yield`) after every SLICE events: an imported record is a hundred
 * thousand hashes, seconds of work a caller serving requests does a slice at a time.
 */
export function* chainInSlices(streamId: string, after: Pick<StreamHead, 'version' | 'lastHash'>, drafts: readonly DraftEvent[]): Generator<void, StoredEvent[]> {
  let prevHash = after.lastHash;
  const events: StoredEvent[] = new Array(drafts.length);
  for (let i = 0; i < drafts.length; i++) {
    const d = drafts[i];
    // Every member written out: one object of one shape, not a spread and a copy of it.
    const event: StoredEvent = {
      seq: after.version + 1 + i,
      type: d.type,
      actor: d.actor,
      moveId: d.moveId,
      bodyHash: d.bodyHash,
      payload: d.payload,
      createdAt: d.createdAt,
      prevHash,
      hash: '',
    };
    event.hash = prevHash = eventHash(streamId, event);
    events[i] = event;
    if ((i + 1) % SLICE === 0 && i + 1 < drafts.length) yield;
  }
  return events;
}

export interface FoldOptions<S, E> {
  /** Recompute every hash (on load and on verification). */
  checkHashes?: boolean;
  /** Stop after this seq (state at a point in time). */
  untilSeq?: number;
  /** Called with the states before and after each event. */
  onEvent?: (stored: StoredEvent, event: E, before: S, after: S) => void;
  /** Continue from this already folded (and checked) state: `events` start right after its version. */
  from?: Folded<S>;
}

/**
 * Folds a stream into its state, checking on the way the sequence, the hash chain and (through
 * the aggregate's evolve) every rule. Live loading, verification, state-at-seq and the offline
 * verifier all use this one function, so what is served is what is verified.
 */
export function foldStream<S, E, C>(aggregate: Aggregate<S, E, C>, streamId: string, events: readonly StoredEvent[], ctx: C, opts: FoldOptions<S, E> = {}): Folded<S> {
  return finish(foldInSlices(aggregate, streamId, events, ctx, opts));
}

/**
 * The same fold, pausing (`yield`) after every SLICE events, so that a caller serving requests
 * can let others run between slices of a long stream. Still pure: the caller decides when to resume.
 */
export function* foldInSlices<S, E, C>(aggregate: Aggregate<S, E, C>, streamId: string, events: readonly StoredEvent[], ctx: C, opts: FoldOptions<S, E> = {}): Generator<void, Folded<S>> {
  if (events.length === 0 && !opts.from) throw new StreamError(1, 'the stream is empty');
  const fail = (seq: number, v: { code: string; message: string }): never => {
    throw new StreamError(seq, v.code === MALFORMED ? v.message : `${v.code}: ${v.message}`);
  };
  const from = opts.from;
  // A new head over the same command ids, as in advanceHead.
  const head: StreamHead = from ? { version: from.version, lastHash: from.lastHash, commands: from.commands, lastCommand: from.lastCommand } : emptyHead();
  let state: S | undefined = from;
  for (const stored of events) {
    if (opts.untilSeq !== undefined && stored.seq > opts.untilSeq) break;
    if (stored.seq !== head.version + 1) throw new StreamError(stored.seq, `expected seq ${head.version + 1}`);
    if (stored.prevHash !== head.lastHash) throw new StreamError(stored.seq, "prevHash does not match the previous event's hash");
    if (opts.checkHashes && eventHash(streamId, stored) !== stored.hash) throw new StreamError(stored.seq, "the hash does not match the event's content (the event was altered)");
    const event = aggregate.decode(stored);
    if (!event.ok) return fail(stored.seq, event.error);
    const next = state === undefined ? aggregate.found(streamId, event.value, ctx) : aggregate.evolve(state, event.value, stored, ctx);
    if (!next.ok) return fail(stored.seq, next.error);
    opts.onEvent?.(stored, event.value, state ?? next.value, next.value);
    state = next.value;
    appendToHead(head, stored, aggregate.follows);
    if (stored.seq % SLICE === 0) yield;
  }
  return { ...(state as S), ...head };
}

/** Runs a sliced computation to its end at once. */
export function finish<T>(slices: Generator<void, T>): T {
  for (;;) {
    const step = slices.next();
    if (step.done) return step.value;
  }
}
