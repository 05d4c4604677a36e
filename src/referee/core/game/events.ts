import { fail, ok, type Outcome, type Result, type Seat } from '../../../engines/kit/index.js';
import { type DraftEvent, MALFORMED, type StoredEvent } from '../stream.js';

/** The payload of a game stream's first event. */
export type GameCreatedPayload = {
  kind: string;
  ruleset: unknown;
  rulesetHash: string;
  seats: { name: string | null }[];
  seedCommitment: string;
  randomSource: 'fair' | 'supplied';
  imported: boolean;
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
  | { type: 'SeatJoined'; payload: { seat: Seat; name: string | null } }
  | { type: 'GameStarted'; payload: { clientSeeds: (string | null)[]; mix: string } }
  | { type: 'ActionTaken'; actor: Seat; payload: { action: unknown } }
  | { type: 'Resigned'; actor: Seat; payload: Record<string, never> }
  | { type: 'ChanceDrawn'; label: string; payload: { chance: Chance } }
  /** `adjudication`: the organizer decided the outcome (a tournament result entered for this game). */
  | { type: 'GameEnded'; payload: { outcome: Outcome; adjudication?: { reason: string } } }
  | { type: 'SeedRevealed'; payload: { serverSeed: string } };

export type GameEventType = GameEvent['type'];

const REFEREE_TYPES = new Set<string>(['GameCreated', 'SeatJoined', 'GameStarted', 'ActionTaken', 'Resigned', 'GameEnded', 'SeedRevealed']);

/** Whether a stored type is a chance event's (an engine label, not one of the referee's types). */
export const isChanceType = (type: string): boolean => !REFEREE_TYPES.has(type);

/** The stored type of an event: a chance event keeps the engine's label. */
export const storedType = (e: GameEvent): string => (e.type === 'ChanceDrawn' ? e.label : e.type);

/** A draft of an event, stamped with the time the referee decided it. */
export function draftOf(e: GameEvent, createdAt: string): DraftEvent {
  const actor = e.type === 'ActionTaken' || e.type === 'Resigned' ? e.actor : null;
  return { type: storedType(e), actor, moveId: null, bodyHash: null, payload: e.payload, createdAt };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const malformed = (message: string): Result<never> => fail(MALFORMED, message);

/** The typed event of a stored row, checking the payload's shape. */
export function decodeGameEvent(e: StoredEvent): Result<GameEvent> {
  const p = e.payload;
  if (!isObject(p)) return malformed('the payload is not an object');
  const asSeat = (): Seat | null => (Number.isInteger(e.actor) ? (e.actor as Seat) : null);
  switch (e.type) {
    case 'GameCreated': {
      if (typeof p.kind !== 'string' || !Array.isArray(p.seats) || typeof p.rulesetHash !== 'string' || typeof p.seedCommitment !== 'string')
        return malformed('GameCreated lacks its kind, seats, ruleset hash or seed commitment');
      const seats = p.seats.map((s) => ({ name: isObject(s) && typeof s.name === 'string' ? s.name : null }));
      const randomSource = p.randomSource === 'supplied' ? 'supplied' : 'fair';
      return ok({ type: e.type, payload: { kind: p.kind, ruleset: p.ruleset, rulesetHash: p.rulesetHash, seats, seedCommitment: p.seedCommitment, randomSource, imported: p.imported === true } });
    }
    case 'SeatJoined':
      if (!Number.isInteger(p.seat)) return malformed('SeatJoined names no seat');
      return ok({ type: e.type, payload: { seat: p.seat as Seat, name: typeof p.name === 'string' ? p.name : null } });
    case 'GameStarted':
      if (!Array.isArray(p.clientSeeds) || typeof p.mix !== 'string') return malformed('one client seed (or null) per seat');
      return ok({ type: e.type, payload: { clientSeeds: p.clientSeeds as (string | null)[], mix: p.mix } });
    case 'ActionTaken':
    case 'Resigned': {
      const actor = asSeat();
      if (actor === null) return malformed('the actor is not a seat of this game');
      return e.type === 'Resigned' ? ok({ type: e.type, actor, payload: {} }) : ok({ type: e.type, actor, payload: { action: p.action } });
    }
    case 'GameEnded':
      if (!isObject(p.outcome)) return malformed('GameEnded carries no outcome');
      if (p.adjudication !== undefined && !(isObject(p.adjudication) && typeof p.adjudication.reason === 'string')) return malformed('an adjudication gives its reason');
      return ok({ type: e.type, payload: { outcome: p.outcome as unknown as Outcome, ...(p.adjudication ? { adjudication: { reason: (p.adjudication as { reason: string }).reason } } : {}) } });
    case 'SeedRevealed':
      if (typeof p.serverSeed !== 'string') return malformed('SeedRevealed carries no seed');
      return ok({ type: e.type, payload: { serverSeed: p.serverSeed } });
    default: {
      const c = p.chance;
      if (!isObject(c) || !Array.isArray(c.ranges) || !Array.isArray(c.values)) return malformed(`unknown event type ${e.type}`);
      return ok({ type: 'ChanceDrawn', label: e.type, payload: { chance: c as unknown as Chance } });
    }
  }
}
