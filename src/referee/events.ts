import { sha256Hex, canonicalJson } from './canonical.js';

/** One row of a game's event stream, as stored, hashed and exported. */
export interface StoredEvent {
  seq: number;
  type: string;
  /** Seat that caused it; null for the referee's own events. */
  actor: number | null;
  /** Client move id on the first event of an accepted move. */
  moveId: string | null;
  /** SHA-256 of the move's canonical body (for safe retries). */
  bodyHash: string | null;
  payload: Record<string, unknown>;
  /** ISO 8601 with milliseconds. */
  createdAt: string;
  prevHash: string;
  hash: string;
}

export const GENESIS_HASH = '0'.repeat(64);

/** Event types the referee core writes; chance events take the engine's label (DiceRolled...). */
export const CoreEvents = {
  GameCreated: 'GameCreated',
  SeatJoined: 'SeatJoined',
  GameStarted: 'GameStarted',
  ActionTaken: 'ActionTaken',
  Resigned: 'Resigned',
  GameEnded: 'GameEnded',
  SeedRevealed: 'SeedRevealed',
} as const;

export interface ChancePayload {
  chance: {
    ranges: number[];
    values: number[];
    /** 'fair': drawn by the referee from its seed; 'supplied': an organizer's deal or an imported record. */
    source: 'fair' | 'supplied';
    /** HMAC counters used, [first, next), for fair draws. */
    counter?: [number, number];
    hidden?: boolean;
  };
}

export const isChanceEvent = (e: Pick<StoredEvent, 'payload'>): boolean =>
  typeof e.payload === 'object' && e.payload !== null && 'chance' in e.payload;

/** hash = SHA-256(prevHash || canonical JSON of the event without its hashes). */
export function eventHash(gameId: string, e: Omit<StoredEvent, 'hash'>): string {
  const body = {
    gameId,
    seq: e.seq,
    type: e.type,
    actor: e.actor,
    moveId: e.moveId,
    bodyHash: e.bodyHash,
    payload: e.payload,
    createdAt: e.createdAt,
  };
  return sha256Hex(e.prevHash + canonicalJson(body));
}

/** Builds the next events of a stream, chaining their hashes. */
export function chainEvents(
  gameId: string,
  after: { version: number; lastHash: string },
  drafts: Omit<StoredEvent, 'seq' | 'prevHash' | 'hash'>[],
): StoredEvent[] {
  let prevHash = after.lastHash;
  return drafts.map((d, i) => {
    const partial = { ...d, seq: after.version + 1 + i, prevHash };
    const hash = eventHash(gameId, partial);
    prevHash = hash;
    return { ...partial, hash };
  });
}
