import { Injectable, Logger, Optional } from '@nestjs/common';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { type AccountCommand, type AccountDecision, type AccountKind, type AccountState, accountAggregate, decideAccount, foldAccount, type KeyScope } from '../core/account/account.js';
import { sha256Hex } from '../core/canonical.js';
import { RefereeError } from '../core/errors.js';
import { advanceHead, chainEvents, emptyHead, type Folded, type StoredEvent } from '../core/stream.js';
import { AccountStore, ExternalIdTaken, type KeyChange, type KeyRow } from '../store/account-store.js';
import { Clock, SystemClock } from './clock.js';
import { HeldStreams } from './held-streams.js';
import { isKey, KeyDirectory, type KeyHolder, newAppKey, newPlayerKey, type PlayerCard, requireScope } from './key-holders.js';
import { RefereeService } from './referee.service.js';
import { unwrap } from './seat-tokens.js';
import { type Advanced, StreamCommands, type StreamWriter } from './stream-commands.js';
import { StoredStreams } from './stored-streams.js';

/** A player's or an app's stream as held: folded, every hash checked. */
export type LiveAccount = Folded<AccountState>;
type AccountBatch = { accountId: string; events: StoredEvent[] };
type AccountStep = { decision: AccountDecision; key: KeyChange };
type AdvancedAccount = Advanced<LiveAccount, AccountBatch>;

/** Player ids start `pl-`, app ids `ap-` (participants' are `p-`, tournaments' `t-`). */
const isAccountId = (id: string) => /^(pl|ap)-[A-Za-z0-9_-]{1,64}$/.test(id);
const keyHash = (secret: string) => sha256Hex(secret);
/** The first characters of a key, to recognise it by in a list: its prefix and 42 of its 256 random bits. */
const shownPrefix = (secret: string) => secret.slice(0, 12);

/** A key as its holder lists it: never its secret nor its hash. */
export interface KeyListing {
  keyId: string;
  prefix: string;
  scopes: KeyScope[];
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const listing = (k: KeyRow): KeyListing => ({ keyId: k.id, prefix: k.prefix, scopes: k.scopes as KeyScope[], createdAt: k.createdAt, lastUsedAt: k.lastUsedAt, revokedAt: k.revokedAt });

/** A key just issued or rotated: the secret is in this answer and nowhere else, ever. */
export interface ShownKey {
  secret: string;
  key: KeyListing;
}

/** The accounts' streams: folded from their logs; an account never ends. */
const accountStreams = (store: AccountStore) =>
  new StoredStreams<LiveAccount, AccountBatch>(store, {
    name: 'account',
    what: 'player or app',
    isId: isAccountId,
    idOf: (a) => a.accountId,
    isOver: () => false,
    fold: foldAccount,
    batch: (accountId, events) => ({ accountId, events }),
  });

/** The account's part of the command path: its events stored with the key row they change, in one transaction. */
class AccountWriter implements StreamWriter<LiveAccount, AccountStep, AdvancedAccount> {
  constructor(private readonly store: AccountStore) {}
  advance(a: LiveAccount, { decision }: AccountStep): AdvancedAccount {
    const events = chainEvents(a.accountId, a, decision.drafts);
    const next: LiveAccount = { ...decision.state, createdAt: a.createdAt, ...advanceHead(a, events, accountAggregate.follows) };
    return { next, events, batch: { accountId: a.accountId, events } };
  }
  append(_a: LiveAccount, { next, events }: AdvancedAccount, { key }: AccountStep): Promise<void> {
    return this.store.append(next.accountId, events, { version: next.version, hash: next.lastHash }, key);
  }
}

/**
 * Players and apps (docs/players.md): registered, their keys issued, rotated and revoked
 * through the one command path (the referee's gate, a queue per account, an expected version),
 * each key row written with its event. Who may manage an account: its own keys, and an app's
 * keys for the players it created.
 */
@Injectable()
export class AccountService {
  private readonly logger = new Logger('Accounts');
  private readonly held: HeldStreams<LiveAccount, AccountBatch>;
  private readonly path: StreamCommands<LiveAccount, AccountBatch, AccountStep, AdvancedAccount>;

  constructor(
    private readonly store: AccountStore,
    private readonly referee: RefereeService,
    @Optional() private readonly clock: Clock = new SystemClock(),
  ) {
    // Every read compares the held stream with its stored version: another instance may have changed it.
    this.held = new HeldStreams(accountStreams(store), { running: 1000, over: 1, readsStoredVersion: true });
    this.path = new StreamCommands(referee.gate, this.held, new AccountWriter(store), 'the account kept changing; try again');
  }

  /** A new player with its first key (every scope a player's key may carry unless `scopes` says fewer); created by `app` when an app's key asks. */
  registerPlayer(input: { name: string; externalId: string | null; scopes: KeyScope[] | null }, app: KeyHolder | null): Promise<{ account: LiveAccount; key: ShownKey }> {
    const appId = app?.owner === 'app' ? app.ownerId : null;
    return this.register('player', { type: 'RegisterPlayer', name: input.name, externalId: input.externalId, appId, keyId: newKeyId(), scopes: input.scopes });
  }

  registerApp(input: { name: string; scopes: KeyScope[] | null }): Promise<{ account: LiveAccount; key: ShownKey }> {
    return this.register('app', { type: 'RegisterApp', name: input.name, keyId: newKeyId(), scopes: input.scopes });
  }

  private register(kind: AccountKind, command: AccountCommand & { keyId: string }): Promise<{ account: LiveAccount; key: ShownKey }> {
    return this.referee.gate.run(async () => {
      const id = `${kind === 'player' ? 'pl' : 'ap'}-${randomBytes(9).toString('base64url')}`;
      const decided = unwrap(decideAccount(id, null, command, this.clock.now().toISOString()));
      const events = chainEvents(id, emptyHead(), decided.drafts);
      const account: LiveAccount = { ...decided.state, ...advanceHead(emptyHead(), events, accountAggregate.follows) };
      const secret = kind === 'player' ? newPlayerKey() : newAppKey();
      const scopes = account.keys[0].scopes;
      const row = { id, kind, name: account.name, externalId: account.externalId, appId: account.appId, version: account.version, headHash: account.lastHash };
      try {
        await this.store.create(row, events, { issued: { id: command.keyId, hash: keyHash(secret), prefix: shownPrefix(secret), scopes } });
      } catch (err) {
        if (err instanceof ExternalIdTaken) throw new RefereeError('EXTERNAL_ID_TAKEN', 'this app has a player with this externalId already');
        throw err;
      }
      this.held.remember(account);
      this.logger.log(`${kind} ${id} registered${account.appId ? ` by app ${account.appId}` : ''}`);
      return { account, key: await this.shown(id, command.keyId, secret) };
    });
  }

  /** The account the caller manages: its own, or (`playerId`, an app's key with scope `players`) a player its app created. */
  async managed(holder: KeyHolder | null, playerId?: string | null): Promise<LiveAccount> {
    if (!holder) throw new RefereeError('UNAUTHORIZED', "managing keys needs a player's or an app's key as a Bearer token");
    if (!playerId || playerId === holder.ownerId) return this.held.get(holder.ownerId);
    const notYours = new RefereeError('NOT_FOUND', `no player ${playerId} created by this app`);
    if (holder.owner !== 'app') throw notYours;
    requireScope(holder, 'players');
    const player = isAccountId(playerId) ? await this.held.get(playerId).catch(() => null) : null;
    if (!player || player.appId !== holder.ownerId) throw notYours;
    return player;
  }

  /**
   * Checks that the caller's key may hand out `scopes` on `account`: on its own account only
   * scopes it holds itself (a read-only key mints no player key); an app with `players` gives
   * its players any scope a player may hold.
   */
  private mayGrant(holder: KeyHolder | null, account: LiveAccount, scopes: readonly KeyScope[]): void {
    if (!holder || account.accountId !== holder.ownerId) return;
    const missing = scopes.find((s) => !holder.scopes.includes(s));
    if (missing) throw new RefereeError('SCOPE_MISSING', `this key lacks the scope "${missing}", so it cannot give it to a key`);
  }

  async issueKey(holder: KeyHolder | null, scopes: KeyScope[] | null, playerId?: string | null): Promise<ShownKey> {
    const account = await this.managed(holder, playerId);
    const own = account.accountId === holder?.ownerId;
    // Omitted scopes: the caller key's own on its account, every player scope on an app's player.
    const asked = scopes ?? (own && holder ? [...holder.scopes] : null);
    if (asked) this.mayGrant(holder, account, asked);
    const keyId = newKeyId();
    const secret = account.kind === 'player' ? newPlayerKey() : newAppKey();
    await this.change(account.accountId, { type: 'IssueKey', keyId, scopes: asked }, (scoped) => ({ issued: { id: keyId, hash: keyHash(secret), prefix: shownPrefix(secret), scopes: scoped } }));
    return this.shown(account.accountId, keyId, secret);
  }

  /** A new secret for the key (same id and scopes); the old one is refused from the next request on. */
  async rotateKey(holder: KeyHolder | null, keyId: string, playerId?: string | null): Promise<ShownKey> {
    const account = await this.managed(holder, playerId);
    const key = account.keys.find((k) => k.keyId === keyId);
    if (key) this.mayGrant(holder, account, key.scopes);
    const secret = account.kind === 'player' ? newPlayerKey() : newAppKey();
    await this.change(account.accountId, { type: 'RotateKey', keyId }, () => ({ rotated: { id: keyId, hash: keyHash(secret), prefix: shownPrefix(secret) } }));
    return this.shown(account.accountId, keyId, secret);
  }

  /** Revokes a key (any key of the account: revoking gives nothing away). */
  async revokeKey(holder: KeyHolder | null, keyId: string, playerId?: string | null): Promise<KeyListing> {
    const account = await this.managed(holder, playerId);
    await this.change(account.accountId, { type: 'RevokeKey', keyId }, () => ({ revoked: { id: keyId } }));
    return this.key(account.accountId, keyId);
  }

  async keys(accountId: string): Promise<KeyListing[]> {
    return (await this.store.keys(accountId)).map(listing);
  }

  account(accountId: string): Promise<LiveAccount> {
    return this.held.get(accountId);
  }

  private async change(accountId: string, command: AccountCommand, key: (scopes: KeyScope[]) => KeyChange): Promise<void> {
    await this.path.run(accountId, {
      decide: (a) => {
        const decided = decideAccount(accountId, a, command, this.clock.now().toISOString());
        if (!decided.ok) return decided;
        const issued = command.type === 'IssueKey' ? decided.value.state.keys.find((k) => k.keyId === command.keyId)?.scopes : undefined;
        return { ok: true, value: { decision: decided.value, key: key(issued ?? []) } };
      },
      accepted: () => undefined,
    });
    if (command.type !== 'IssueKey') this.logger.log(`account ${accountId}: key ${command.keyId} ${command.type === 'RotateKey' ? 'rotated' : 'revoked'}`);
  }

  private async key(accountId: string, keyId: string): Promise<KeyListing> {
    const k = (await this.keys(accountId)).find((r) => r.keyId === keyId);
    if (!k) throw new RefereeError('NOT_FOUND', `no key ${keyId}`);
    return k;
  }

  private async shown(accountId: string, keyId: string, secret: string): Promise<ShownKey> {
    return { secret, key: await this.key(accountId, keyId) };
  }
}

const newKeyId = () => `key-${randomBytes(9).toString('base64url')}`;

/**
 * The keys as the database holds them (the KeyDirectory every module asks): a key is found by
 * its hash and compared in constant time, on every request, never cached: a key revoked on any
 * instance is refused from the next request on.
 */
@Injectable()
export class StoredKeys extends KeyDirectory {
  private readonly logger = new Logger('Keys');

  constructor(private readonly store: AccountStore) {
    super();
  }

  async holder(token: string): Promise<KeyHolder | null> {
    if (!isKey(token)) return null;
    const hash = keyHash(token);
    const row = await this.store.keyByHash(hash);
    if (!row || !timingSafeEqual(Buffer.from(row.hash, 'hex'), Buffer.from(hash, 'hex'))) return null;
    // Noted (at most once a minute) before the request runs, so that it lists its own use; a failure to note it refuses nothing.
    if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000)
      await this.store.used(row.id).catch((err) => this.logger.warn(`could not note key ${row.id} as used: ${(err as Error).message}`));
    return { owner: row.kind === 'app' ? 'app' : 'player', ownerId: row.accountId, keyId: row.id, scopes: row.scopes as KeyScope[] };
  }

  async player(playerId: string): Promise<PlayerCard | null> {
    if (!isAccountId(playerId)) return null;
    const row = await this.store.account(playerId);
    return row && row.kind === 'player' ? { id: row.id, name: row.name, appId: row.appId } : null;
  }
}
