import { fail, ok, type Outcome, type Result, type Seat } from '../../../engines/kit/index.js';
import { type DraftEvent, isObject, MALFORMED, type StoredEvent } from '../stream.js';
import { type ClockActor, storedTimeControl, type TimeControl, type TimeoutRule } from './clock.js';

/** The payload of a game stream's first event. */
export type GameCreatedPayload = {
  kind: string;
  ruleset: unknown;
  rulesetHash: string;
  /** `player`: the player the seat is bound to (absent: none, and in every game created before players). */
  seats: { name: string | null; player?: string }[];
  seedCommitment: string;
  randomSource: 'fair' | 'supplied';
  imported: boolean;
  /** Absent: no clock (every game created before clocks, and every imported one). */
  timeControl?: TimeControl;
  /** The game counts for its players' ratings (docs/ratings.md); absent: it does not. */
  rated?: true;
};

/** Random values the referee drew (or was given) for the engine's chance request. */
export type Chance = {
  ranges: number[];
  values: number[];
  /** 'fair': drawn by the referee from its seed; 'supplied': an organizer's deal or an imported record. */
  source: 'fair' | 'supplied';
  /** HMAC counters used, [first, next), for fair draws. */
  counter?: [number, number];
  hidden?: boolean;
};

/**
 * A game's events. Chance events are stored under the engine's own label (DiceRolled,
 * TilesShuffled, SticksCast...): every type that is not one of the referee's is a ChanceDrawn.
 */
export type GameEvent =
  | { type: 'GameCreated'; payload: GameCreatedPayload }
  /** `player`: the player who joined with a player key (absent: an anonymous seat token's). */
  | { type: 'SeatJoined'; payload: { seat: Seat; name: string | null; player?: string } }
  | { type: 'GameStarted'; payload: { clientSeeds: (string | null)[]; mix: string } }
  /** `auto`: the referee played it for a seat auto-played after its timeout; `forced`: the seat's only legal action, which the ruleset has the referee play. */
  | { type: 'ActionTaken'; actor: Seat; payload: { action: unknown; auto?: true; forced?: true } }
  | { type: 'Resigned'; actor: Seat; payload: Record<string, never> }
  | { type: 'ChanceDrawn'; label: string; payload: { chance: Chance } }
  /** `adjudication`: the organizer decided the outcome (a tournament result entered for this game); `entry`: that result as its tournament records it (opaque here). */
  | { type: 'GameEnded'; payload: { outcome: Outcome; adjudication?: Adjudication } }
  | { type: 'SeedRevealed'; payload: { serverSeed: string } }
  /** The seat's deadline passed; `rule`: what the game's ruleset makes of it. */
  | { type: 'TimedOut'; payload: { seat: Seat; rule: TimeoutRule } }
  /** Caused by the seat `by` (actor) or the organizer (no actor). */
  | { type: 'TimeAdded'; payload: { seat: Seat; ms: number; by: ClockActor; vacation: boolean } }
  | { type: 'PauseRequested'; actor: Seat; payload: { seat: Seat } }
  | { type: 'ResumeRequested'; actor: Seat; payload: { seat: Seat } }
  /** The seat declined the others' request to pause: every request withdrawn. */
  | { type: 'PauseDeclined'; actor: Seat; payload: { seat: Seat } }
  | { type: 'ClockPaused'; payload: { by: 'organizer' | 'seats' } }
  | { type: 'ClockResumed'; payload: { by: 'organizer' | 'seats' } }
  /** The seat ended the game before any seat moved: no result (docs/time-controls.md, "Aborting a game"). */
  | { type: 'GameAborted'; actor: Seat; payload: { seat: Seat } };

export type GameEventType = GameEvent['type'];

const REFEREE_TYPES = new Set<string>([
  'GameCreated',
  'SeatJoined',
  'GameStarted',
  'ActionTaken',
  'Resigned',
  'GameEnded',
  'SeedRevealed',
  'TimedOut',
  'TimeAdded',
  'PauseRequested',
  'ResumeRequested',
  'PauseDeclined',
  'ClockPaused',
  'ClockResumed',
  'GameAborted',
]);

/** Whether a stored type is a chance event's (an engine label, not one of the referee's types). */
export const isChanceType = (type: string): boolean => !REFEREE_TYPES.has(type);

/** The stored type of an event: a chance event keeps the engine's label. */
export const storedType = (e: GameEvent): string => (e.type === 'ChanceDrawn' ? e.label : e.type);

/** The seat that caused an event, or null for the referee's (and the organizer's) own. */
function actorOf(e: GameEvent): Seat | null {
  if (e.type === 'ActionTaken' || e.type === 'Resigned' || e.type === 'PauseRequested' || e.type === 'ResumeRequested' || e.type === 'PauseDeclined' || e.type === 'GameAborted') return e.actor;
  if (e.type === 'TimeAdded' && e.payload.by !== 'organizer') return e.payload.by;
  return null;
}

/** A draft of an event, stamped with the time the referee decided it. */
export function draftOf(e: GameEvent, createdAt: string): DraftEvent {
  const actor = actorOf(e);
  return { type: storedType(e), actor, moveId: null, bodyHash: null, payload: e.payload, createdAt };
}

/** An organizer's decision of a game's outcome: why, and the tournament result it enters, if any. */
export interface Adjudication {
  reason: string;
  entry?: Record<string, unknown>;
}

export const adjudication = (reason: string, entry: Record<string, unknown> | undefined): Adjudication => (entry ? { reason, entry } : { reason });

/** A seat's payload with its player when it has one: an unbound seat's keeps the shape (and hash) it always had. */
export const withPlayer = <T extends object>(seat: T, player: unknown): T & { player?: string } => (typeof player === 'string' ? { ...seat, player } : seat);

const malformed = (message: string): Result<never> => fail(MALFORMED, message);
const isSeatNumber = (v: unknown): v is Seat => Number.isInteger(v) && (v as number) >= 0;
const hasExactly = (p: Record<string, unknown>, keys: readonly string[]): boolean => Object.keys(p).length === keys.length && keys.every((k) => Object.hasOwn(p, k));
const isBy = (v: unknown): v is 'organizer' | 'seats' => v === 'organizer' || v === 'seats';

/** The typed event of a stored row, checking the payload's shape. */
export function decodeGameEvent(e: StoredEvent): Result<GameEvent> {
  const p = e.payload;
  if (!isObject(p)) return malformed('the payload is not an object');
  const asSeat = (): Seat | null => (Number.isInteger(e.actor) ? (e.actor as Seat) : null);
  switch (e.type) {
    case 'GameCreated': {
      if (typeof p.kind !== 'string' || !Array.isArray(p.seats) || typeof p.rulesetHash !== 'string' || typeof p.seedCommitment !== 'string')
        return malformed('GameCreated lacks its kind, seats, ruleset hash or seed commitment');
      const seats = p.seats.map((s) => withPlayer({ name: isObject(s) && typeof s.name === 'string' ? s.name : null }, isObject(s) ? s.player : undefined));
      if (!p.seats.every((s) => !isObject(s) || s.player === undefined || typeof s.player === 'string')) return malformed("a seat's player is an id");
      const randomSource = p.randomSource === 'supplied' ? 'supplied' : 'fair';
      const timeControl = p.timeControl === undefined ? undefined : storedTimeControl(p.timeControl);
      if (timeControl === null) return malformed('the time control is not in its complete, validated form');
      const payload: GameCreatedPayload = { kind: p.kind, ruleset: p.ruleset, rulesetHash: p.rulesetHash, seats, seedCommitment: p.seedCommitment, randomSource, imported: p.imported === true };
      if (p.rated !== undefined && p.rated !== true) return malformed('a rated game is marked "rated": true');
      const timed = timeControl ? { ...payload, timeControl } : payload;
      return ok({ type: e.type, payload: p.rated ? { ...timed, rated: true } : timed });
    }
    case 'SeatJoined':
      if (!Number.isInteger(p.seat)) return malformed('SeatJoined names no seat');
      if (p.player !== undefined && typeof p.player !== 'string') return malformed("SeatJoined's player is an id");
      return ok({ type: e.type, payload: withPlayer({ seat: p.seat as Seat, name: typeof p.name === 'string' ? p.name : null }, p.player) });
    case 'GameStarted':
      if (!Array.isArray(p.clientSeeds) || typeof p.mix !== 'string') return malformed('one client seed (or null) per seat');
      return ok({ type: e.type, payload: { clientSeeds: p.clientSeeds as (string | null)[], mix: p.mix } });
    case 'ActionTaken':
    case 'Resigned': {
      const actor = asSeat();
      if (actor === null) return malformed('the actor is not a seat of this game');
      if (e.type === 'Resigned') return ok({ type: e.type, actor, payload: {} });
      if (p.auto !== undefined && p.auto !== true) return malformed('an auto-played action is marked "auto": true');
      if (p.forced !== undefined && (p.forced !== true || p.auto)) return malformed('a forced action is marked "forced": true (and is not also "auto")');
      return ok({ type: e.type, actor, payload: p.auto ? { action: p.action, auto: true } : p.forced ? { action: p.action, forced: true } : { action: p.action } });
    }
    case 'GameEnded':
      if (!isObject(p.outcome)) return malformed('GameEnded carries no outcome');
      if (p.adjudication === undefined) return ok({ type: e.type, payload: { outcome: p.outcome as unknown as Outcome } });
      if (!isObject(p.adjudication) || typeof p.adjudication.reason !== 'string') return malformed('an adjudication gives its reason');
      if (p.adjudication.entry !== undefined && !isObject(p.adjudication.entry)) return malformed("an adjudication's entry is an object");
      return ok({ type: e.type, payload: { outcome: p.outcome as unknown as Outcome, adjudication: adjudication(p.adjudication.reason, p.adjudication.entry) } });
    case 'SeedRevealed':
      if (typeof p.serverSeed !== 'string') return malformed('SeedRevealed carries no seed');
      return ok({ type: e.type, payload: { serverSeed: p.serverSeed } });
    case 'TimedOut':
      if (!hasExactly(p, ['seat', 'rule']) || !isSeatNumber(p.seat) || (p.rule !== 'concede' && p.rule !== 'autoPlay') || e.actor !== null)
        return malformed('TimedOut names the seat and its rule ("concede" or "autoPlay"), and no actor');
      return ok({ type: e.type, payload: { seat: p.seat, rule: p.rule } });
    case 'TimeAdded': {
      const { seat, ms, by, vacation } = p;
      if (!hasExactly(p, ['seat', 'ms', 'by', 'vacation']) || !isSeatNumber(seat) || !Number.isInteger(ms) || (by !== 'organizer' && !isSeatNumber(by)) || typeof vacation !== 'boolean')
        return malformed('TimeAdded gives the seat, the ms added, by whom ("organizer" or a seat) and whether it is a vacation');
      if (e.actor !== (by === 'organizer' ? null : by)) return malformed('the actor of TimeAdded is the seat that gave the time (none for the organizer)');
      return ok({ type: e.type, payload: { seat, ms: ms as number, by, vacation } });
    }
    case 'PauseRequested':
    case 'ResumeRequested':
    case 'PauseDeclined':
    case 'GameAborted':
      if (!hasExactly(p, ['seat']) || !isSeatNumber(p.seat) || e.actor !== p.seat) return malformed(`${e.type} names the seat that asks, its actor`);
      return ok({ type: e.type, actor: p.seat, payload: { seat: p.seat } });
    case 'ClockPaused':
    case 'ClockResumed':
      if (!hasExactly(p, ['by']) || !isBy(p.by) || e.actor !== null) return malformed(`${e.type} is by "organizer" or "seats", with no actor`);
      return ok({ type: e.type, payload: { by: p.by } });
    default: {
      const c = p.chance;
      if (!isObject(c) || !Array.isArray(c.ranges) || !Array.isArray(c.values)) return malformed(`unknown event type ${e.type}`);
      return ok({ type: 'ChanceDrawn', label: e.type, payload: { chance: c as unknown as Chance } });
    }
  }
}
