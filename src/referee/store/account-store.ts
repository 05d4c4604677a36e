import type { StoredEvent } from '../core/stream.js';

export interface AccountRow {
  id: string;
  kind: string;
  name: string;
  externalId: string | null;
  appId: string | null;
  version: number;
  headHash: string;
  createdAt: Date;
}

/** A key as stored: the SHA-256 of its secret (hex), never the secret. */
export interface KeyRow {
  id: string;
  accountId: string;
  hash: string;
  /** The secret's first characters, to recognise it by in a list. */
  prefix: string;
  scopes: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** What an append does to the keys, with its events: a key issued, a new secret, a key revoked. */
export type KeyChange = { issued: Pick<KeyRow, 'id' | 'hash' | 'prefix' | 'scopes'> } | { rotated: Pick<KeyRow, 'id' | 'hash' | 'prefix'> } | { revoked: { id: string } };

/** An app's externalId given to another of its players already. */
export class ExternalIdTaken extends Error {}

/**
 * The accounts' storage: streams of the same row shape as games' and tournaments', and the keys,
 * written in the same transaction as the events. An append is all or nothing at an expected
 * version (AppendConflict otherwise).
 */
export abstract class AccountStore {
  /** A new account's stream and its first key; ExternalIdTaken when its app named another player so. */
  abstract create(row: Omit<AccountRow, 'createdAt'>, events: StoredEvent[], key: KeyChange): Promise<void>;
  abstract append(id: string, events: StoredEvent[], head: { version: number; hash: string }, key: KeyChange): Promise<void>;
  abstract account(id: string): Promise<AccountRow | null>;
  abstract events(id: string, afterSeq?: number): Promise<StoredEvent[]>;
  abstract versions(ids: readonly string[]): Promise<Map<string, number>>;
  /** The key with this hash that is not revoked, with its account's kind. */
  abstract keyByHash(hash: string): Promise<(KeyRow & { kind: string }) | null>;
  /** An account's keys, oldest first. */
  abstract keys(accountId: string): Promise<KeyRow[]>;
  /** Notes that a key was used (at most once a minute a key: a use is no command). */
  abstract used(keyId: string): Promise<void>;
}
