import { randomBytes } from 'node:crypto';
import { RefereeError } from '../core/errors.js';

// What a key may do (docs/players.md, "Keys"): the account's core says, as its events carry them.
export { KEY_SCOPES, type KeyScope } from '../core/account/account.js';
import type { KeyScope } from '../core/account/account.js';

/** A player's key, acting as that player (its seats, its inbox, its stream). */
export const PLAYER_KEY_PREFIX = 'arbk_';
/** An integrator's app key: creates players and manages what it created. */
export const APP_KEY_PREFIX = 'arba_';

/** 256 random bits after a prefix secret scanners can look for. */
export const newPlayerKey = () => `${PLAYER_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
export const newAppKey = () => `${APP_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
export const isKey = (token: string) => token.startsWith(PLAYER_KEY_PREFIX) || token.startsWith(APP_KEY_PREFIX);

/** Who holds a key that is valid now (issued, not revoked). */
export interface KeyHolder {
  owner: 'player' | 'app';
  /** The player's or the app's id. */
  ownerId: string;
  keyId: string;
  scopes: readonly KeyScope[];
}

/** A player as the rest of the referee sees one: its seats are named after it. */
export interface PlayerCard {
  id: string;
  name: string;
  /** The app that created it, if one did (an app manages only its own players). */
  appId: string | null;
}

/** Finds the holder of a key; null for a token that is no key, or a key unknown or revoked. Never cached past a revocation. */
export abstract class KeyDirectory {
  abstract holder(token: string): Promise<KeyHolder | null>;
  /** The player with this id; null if there is none. */
  abstract player(playerId: string): Promise<PlayerCard | null>;
}

/** No keys at all: every token is a seat's or a tournament's (the referee without the players module, and tests). */
export class NoKeys extends KeyDirectory {
  async holder(): Promise<KeyHolder | null> {
    return null;
  }
  async player(): Promise<PlayerCard | null> {
    return null;
  }
}

/** Refuses a key that lacks `scope` (SCOPE_MISSING); a caller without a key (a seat token, anonymous) is not a key's business. */
export function requireScope(holder: KeyHolder | null, scope: KeyScope): void {
  if (holder && !holder.scopes.includes(scope)) throw new RefereeError('SCOPE_MISSING', `this key lacks the scope "${scope}" this operation needs`);
}
