import { randomBytes } from 'node:crypto';
import type { Result } from '../../engines/kit/index.js';
import { RefereeError } from '../core/errors.js';
import { sha256Hex } from '../core/canonical.js';
import { isCleanText } from '../core/text.js';
import type { EventStore } from '../store/event-store.js';
import type { TokenDirectory } from './directories.js';
import { isKey, type KeyDirectory, type KeyScope, requireScope } from './key-holders.js';
import { Lru } from './lru.js';

export const newToken = () => `arb_${randomBytes(24).toString('base64url')}`;
/** A tournament participant's token: its seat in every game of its tournament. */
export const newParticipantToken = () => `arbp_${randomBytes(24).toString('base64url')}`;
/** A tournament organizer's token: scoped to that tournament, a seat nowhere. */
export const newOrganizerToken = () => `arbo_${randomBytes(24).toString('base64url')}`;
export const isOrganizerToken = (token: string) => token.startsWith('arbo_');
const isParticipantToken = (token: string) => token.startsWith('arbp_');
export const tokenHash = (token: string) => sha256Hex(token);

export { isCleanText };

/** Tokens remembered at most (the least recently found are forgotten first and looked up again when used). */
const MAX_REMEMBERED = 50_000;

/** Seat tokens: stored as SHA-256, looked up once per process and remembered (a bounded number). */
export class SeatTokens {
  private readonly owners = new Lru<{ gameId: string; seat: number }>(MAX_REMEMBERED);
  /** Participant seats found, by "<token hash> <game id>"; players' seats, by "<player id> <game id>" (a seat's binding never changes). */
  private readonly participantSeats = new Lru<number>(MAX_REMEMBERED);

  constructor(
    private readonly store: EventStore,
    private readonly directory: TokenDirectory,
    private readonly keys: KeyDirectory,
  ) {}

  remember(gameId: string, tokens: { seat: number; token: string }[]): void {
    for (const t of tokens) this.owners.set(tokenHash(t.token), { gameId, seat: t.seat });
  }

  /** The seat the bearer of `token` holds in this game; UNAUTHORIZED otherwise. */
  async seatOf(gameId: string, token: string | null): Promise<number> {
    if (!token) throw new RefereeError('UNAUTHORIZED', "acting needs the seat's token as a Bearer token");
    if (isKey(token)) {
      const seat = await this.playerSeat(gameId, await this.playerOf(token, 'play'));
      if (seat === null) throw new RefereeError('UNAUTHORIZED', 'this player holds no seat of this game');
      return seat;
    }
    if (isParticipantToken(token)) {
      const seat = await this.participantSeat(gameId, token);
      if (seat === null) throw new RefereeError('UNAUTHORIZED', "this participant token is not a seat of this game (a participant plays only its own tournament's games)");
      return seat;
    }
    const owner = await this.ownerOf(token);
    if (!owner || owner.gameId !== gameId) throw new RefereeError('UNAUTHORIZED', 'this token is not a seat of this game');
    return owner.seat;
  }

  /** The seat of the game that the token's participant holds: the tournaments name the participant, the game's seats say where it sits. */
  private async participantSeat(gameId: string, token: string): Promise<number | null> {
    const key = `${tokenHash(token)} ${gameId}`;
    let seat = this.participantSeats.peek(key);
    if (seat === undefined) {
      const role = await this.directory.roleOf(tokenHash(token));
      const found = role?.role === 'participant' && (await this.store.game(gameId))?.seats.find((s) => s.participantId === role.participantId);
      if (!found) return null;
      this.participantSeats.set(key, (seat = found.index));
    }
    return seat;
  }

  /** The player whose key `token` is, with `scope`: UNAUTHORIZED for an unknown or revoked key or an app's, SCOPE_MISSING without the scope. */
  async playerOf(token: string, scope: KeyScope): Promise<string> {
    const holder = await this.keys.holder(token);
    if (!holder) throw new RefereeError('UNAUTHORIZED', 'this key is unknown or revoked');
    if (holder.owner !== 'player') throw new RefereeError('UNAUTHORIZED', "an app's key holds no seat: act with the player's key");
    requireScope(holder, scope);
    return holder.ownerId;
  }

  /** The seat a valid player's key holds in this game, or null (none, an app's key, an unknown or revoked key). */
  async keySeat(gameId: string, token: string): Promise<number | null> {
    const holder = await this.keys.holder(token);
    return holder?.owner === 'player' ? this.playerSeat(gameId, holder.ownerId) : null;
  }

  /** The seat of the game bound to the player, or null. */
  private async playerSeat(gameId: string, playerId: string): Promise<number | null> {
    const key = `${playerId} ${gameId}`;
    let seat = this.participantSeats.peek(key);
    if (seat === undefined) {
      const found = (await this.store.game(gameId))?.seats.find((s) => s.playerId === playerId);
      if (!found) return null;
      this.participantSeats.set(key, (seat = found.index));
    }
    return seat;
  }

  /** The game and seat a token was issued for, or null for a token this referee never issued. */
  async ownerOf(token: string): Promise<{ gameId: string; seat: number } | null> {
    const hash = tokenHash(token);
    let owner = this.owners.peek(hash);
    if (!owner) {
      const row = await this.store.seatByTokenHash(hash);
      if (row) this.owners.set(hash, (owner = { gameId: row.gameId, seat: row.index }));
    }
    return owner ?? null;
  }
}

const MAX_NAME = 64;
const MAX_CLIENT_SEED = 256;

/** A seat's display name: empty means none. */
export function checkName(name: string | null | undefined): string | null {
  if (name === undefined || name === null || name === '') return null;
  if (typeof name !== 'string' || name.length > MAX_NAME) throw new RefereeError('INVALID_INPUT', `a seat name is at most ${MAX_NAME} characters`);
  if (!isCleanText(name)) throw new RefereeError('INVALID_INPUT', 'a seat name must be well-formed Unicode without control characters');
  return name;
}

export function checkClientSeed(seed: string | null | undefined): string | null {
  if (seed === undefined || seed === null || seed === '') return null;
  if (typeof seed !== 'string' || seed.length > MAX_CLIENT_SEED) throw new RefereeError('INVALID_INPUT', `a client seed is at most ${MAX_CLIENT_SEED} characters`);
  if (!isCleanText(seed)) throw new RefereeError('INVALID_INPUT', 'a client seed must be well-formed Unicode without control characters');
  return seed;
}

/** A decider's answer, or its refusal as a RefereeError. */
export function unwrap<T>(r: Result<T>): T {
  if (!r.ok) throw new RefereeError(r.error.code, r.error.message);
  return r.value;
}
