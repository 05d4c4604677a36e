import { Injectable } from '@nestjs/common';
import { DatabaseService } from '../../database/database.service.js';
import type { StoredEvent } from '../core/stream.js';
import { type AccountRow, AccountStore, ExternalIdTaken, type KeyChange, type KeyRow } from './account-store.js';
import { AppendConflict } from './event-store.js';
import { type EventRecord, isUniqueViolation, storedEvent } from './postgres-event-store.js';
import { eventRow, insertStreamEventsSql } from './stream-events-sql.js';

type Tx = { $executeRawUnsafe(sql: string, ...values: unknown[]): Promise<number> };

interface KeyRecord {
  id: string;
  account_id: string;
  hash: string;
  prefix: string;
  scopes: string[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const keyRow = (r: KeyRecord): KeyRow => ({
  id: r.id,
  accountId: r.account_id,
  hash: r.hash,
  prefix: r.prefix,
  scopes: r.scopes,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

/** Accounts and keys on PostgreSQL: each change of a key is written with the event that makes it, in one transaction. */
@Injectable()
export class PostgresAccountStore extends AccountStore {
  constructor(private readonly db: DatabaseService) {
    super();
  }

  async create(row: Omit<AccountRow, 'createdAt'>, events: StoredEvent[], key: KeyChange): Promise<void> {
    try {
      await this.db.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(
          'INSERT INTO accounts (id, kind, name, external_id, app_id, version, head_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8::timestamptz)',
          row.id,
          row.kind,
          row.name,
          row.externalId,
          row.appId,
          row.version,
          row.headHash,
          events[0].createdAt,
        );
        await tx.$executeRawUnsafe(INSERT_EVENTS_SQL, JSON.stringify(events.map((e) => eventRow(e, row.id))));
        await changeKey(tx, row.id, key, events[0].createdAt);
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (row.appId && row.externalId !== null) {
        const { rows } = await this.db.pool.query('SELECT 1 FROM accounts WHERE app_id = $1 AND external_id = $2', [row.appId, row.externalId]);
        if (rows.length > 0) throw new ExternalIdTaken();
      }
      throw new AppendConflict('the account exists');
    }
  }

  async append(id: string, events: StoredEvent[], head: { version: number; hash: string }, key: KeyChange): Promise<void> {
    try {
      await this.db.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(INSERT_EVENTS_SQL, JSON.stringify(events.map((e) => eventRow(e, id))));
        const moved = await tx.$executeRawUnsafe('UPDATE accounts SET version = $2, head_hash = $3, updated_at = now() WHERE id = $1 AND version = $4', id, head.version, head.hash, events[0].seq - 1);
        if (moved !== 1) throw new AppendConflict('version taken');
        await changeKey(tx, id, key, events[events.length - 1].createdAt);
      });
    } catch (err) {
      if (err instanceof AppendConflict) throw err;
      if (isUniqueViolation(err)) throw new AppendConflict('version taken');
      throw err;
    }
  }

  async account(id: string): Promise<AccountRow | null> {
    return this.db.prisma.account.findUnique({ where: { id }, select: { id: true, kind: true, name: true, externalId: true, appId: true, version: true, headHash: true, createdAt: true } });
  }

  async events(id: string, afterSeq = 0): Promise<StoredEvent[]> {
    const { rows } = await this.db.pool.query<EventRecord>(
      'SELECT seq, type, actor, move_id, body_hash, payload, created_at, prev_hash, hash FROM account_events WHERE account_id = $1 AND seq > $2 ORDER BY seq',
      [id, afterSeq],
    );
    return rows.map(storedEvent);
  }

  async versions(ids: readonly string[]): Promise<Map<string, number>> {
    const { rows } = await this.db.pool.query<{ id: string; version: number }>('SELECT id, version FROM accounts WHERE id = ANY($1::text[])', [ids]);
    return new Map(rows.map((r) => [r.id, r.version]));
  }

  async keyByHash(hash: string): Promise<(KeyRow & { kind: string }) | null> {
    const { rows } = await this.db.pool.query<KeyRecord & { kind: string }>(
      `SELECT k.id, k.account_id, k.hash, k.prefix, k.scopes, k.created_at, k.last_used_at, k.revoked_at, a.kind
       FROM keys k JOIN accounts a ON a.id = k.account_id WHERE k.hash = $1 AND k.revoked_at IS NULL`,
      [hash],
    );
    return rows[0] ? { ...keyRow(rows[0]), kind: rows[0].kind } : null;
  }

  async keys(accountId: string): Promise<KeyRow[]> {
    const { rows } = await this.db.pool.query<KeyRecord>('SELECT id, account_id, hash, prefix, scopes, created_at, last_used_at, revoked_at FROM keys WHERE account_id = $1 ORDER BY created_at, id', [
      accountId,
    ]);
    return rows.map(keyRow);
  }

  async used(keyId: string): Promise<void> {
    await this.db.pool.query("UPDATE keys SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')", [keyId]);
  }
}

async function changeKey(tx: Tx, accountId: string, change: KeyChange, at: string): Promise<void> {
  if ('issued' in change) {
    const k = change.issued;
    await tx.$executeRawUnsafe(
      'INSERT INTO keys (id, account_id, hash, prefix, scopes, created_at) VALUES ($1, $2, $3, $4, $5::text[], $6::timestamptz)',
      k.id,
      accountId,
      k.hash,
      k.prefix,
      k.scopes,
      at,
    );
  } else if ('rotated' in change) {
    const k = change.rotated;
    const n = await tx.$executeRawUnsafe('UPDATE keys SET hash = $3, prefix = $4 WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL', k.id, accountId, k.hash, k.prefix);
    if (n !== 1) throw new AppendConflict('the key changed');
  } else {
    const n = await tx.$executeRawUnsafe('UPDATE keys SET revoked_at = $3::timestamptz WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL', change.revoked.id, accountId, at);
    if (n !== 1) throw new AppendConflict('the key changed');
  }
}

const INSERT_EVENTS_SQL = insertStreamEventsSql('account_events', 'account_id');
