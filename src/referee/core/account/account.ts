import { fail, ok, type Result } from '../../../engines/kit/index.js';
import { type Aggregate, type DraftEvent, decodeTyped, type Folded, foldStream, MALFORMED, type PayloadChecks, type StoredEvent } from '../stream.js';
import { isCleanText } from '../text.js';

/**
 * A player or an app (docs/players.md): an account with a name and the keys it holds, its own
 * hash-chained stream like a game's or a tournament's. A player belongs to the app that
 * created it (which may give it an `externalId`), or to itself. Keys are named by id here; their
 * secrets and hashes are never in an event (events are the account's history, not its vault).
 */

/** What a key may do: each operation names the scope it needs. `players` is an app's: create players and manage those it created. */
export const KEY_SCOPES = ['read', 'play', 'create_games', 'tournaments', 'webhooks', 'players'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

export type AccountKind = 'player' | 'app';

/** The scopes a kind of account's keys may carry: a player creates no players. */
export const scopesFor = (kind: AccountKind): readonly KeyScope[] => (kind === 'app' ? KEY_SCOPES : KEY_SCOPES.filter((s) => s !== 'players'));

/** Keys one account holds at most, revoked ones included (each is a row to list). */
export const KEY_LIMIT = 100;
export const NAME_MAX = 100;
export const EXTERNAL_ID_MAX = 200;

export interface KeyState {
  keyId: string;
  scopes: KeyScope[];
  issuedAt: string;
  rotatedAt: string | null;
  revokedAt: string | null;
}

export interface AccountState {
  accountId: string;
  kind: AccountKind;
  name: string;
  externalId: string | null;
  /** The app that created the player; null for an app, or a player that created itself. */
  appId: string | null;
  createdAt: string;
  keys: KeyState[];
}

export type AccountEvent =
  | { type: 'PlayerRegistered'; payload: { name: string; externalId: string | null; appId: string | null } }
  | { type: 'AppRegistered'; payload: { name: string } }
  | { type: 'KeyIssued'; payload: { keyId: string; scopes: KeyScope[] } }
  | { type: 'KeyRotated'; payload: { keyId: string } }
  | { type: 'KeyRevoked'; payload: { keyId: string } };

export type AccountCommand =
  | { type: 'RegisterPlayer'; name: string; externalId: string | null; appId: string | null; keyId: string; scopes: KeyScope[] | null }
  | { type: 'RegisterApp'; name: string; keyId: string; scopes: KeyScope[] | null }
  | { type: 'IssueKey'; keyId: string; scopes: KeyScope[] | null }
  | { type: 'RotateKey'; keyId: string }
  | { type: 'RevokeKey'; keyId: string };

export interface AccountDecision {
  state: AccountState;
  drafts: DraftEvent[];
}

const isScopes = (v: unknown): v is KeyScope[] => Array.isArray(v) && v.every((s) => (KEY_SCOPES as readonly unknown[]).includes(s));
const isNullableString = (v: unknown) => v === null || typeof v === 'string';

const REQUIRED: PayloadChecks<AccountEvent['type']> = {
  PlayerRegistered: (p) => typeof p.name === 'string' && isNullableString(p.externalId) && isNullableString(p.appId),
  AppRegistered: (p) => typeof p.name === 'string',
  KeyIssued: (p) => typeof p.keyId === 'string' && isScopes(p.scopes),
  KeyRotated: (p) => typeof p.keyId === 'string',
  KeyRevoked: (p) => typeof p.keyId === 'string',
};

export const decodeAccountEvent = (e: Pick<StoredEvent, 'type' | 'payload'>): Result<AccountEvent> => decodeTyped<AccountEvent>('account', REQUIRED, e);

function found(accountId: string, first: AccountEvent, createdAt: string): Result<AccountState> {
  if (first.type === 'PlayerRegistered') return ok({ accountId, kind: 'player', ...first.payload, createdAt, keys: [] });
  if (first.type === 'AppRegistered') return ok({ accountId, kind: 'app', name: first.payload.name, externalId: null, appId: null, createdAt, keys: [] });
  return fail(MALFORMED, `an account's first event must be PlayerRegistered or AppRegistered, found ${first.type}`);
}

/** The one transition, for deciding and folding alike. */
export function evolveAccount(a: AccountState, e: AccountEvent, at: string): Result<AccountState> {
  const keyId = 'keyId' in e.payload ? e.payload.keyId : null;
  const key = a.keys.find((k) => k.keyId === keyId);
  const withKey = (changed: KeyState) => ok({ ...a, keys: a.keys.map((k) => (k.keyId === changed.keyId ? changed : k)) });
  switch (e.type) {
    case 'PlayerRegistered':
    case 'AppRegistered':
      return fail(MALFORMED, 'the account is registered already');
    case 'KeyIssued':
      if (key) return fail(MALFORMED, `key ${e.payload.keyId} was issued already`);
      if (a.keys.length >= KEY_LIMIT) return fail('TOO_MANY_KEYS', `an account holds at most ${KEY_LIMIT} keys, revoked ones included`);
      if (!e.payload.scopes.every((s) => scopesFor(a.kind).includes(s))) return fail('INVALID_INPUT', `a ${a.kind}'s key cannot carry these scopes`);
      return ok({ ...a, keys: [...a.keys, { keyId: e.payload.keyId, scopes: e.payload.scopes, issuedAt: at, rotatedAt: null, revokedAt: null }] });
    case 'KeyRotated':
    case 'KeyRevoked':
      if (!key) return fail('NOT_FOUND', `no key ${e.payload.keyId} on this account`);
      if (key.revokedAt) return fail('KEY_REVOKED', `key ${e.payload.keyId} was revoked`);
      return withKey(e.type === 'KeyRotated' ? { ...key, rotatedAt: at } : { ...key, revokedAt: at });
  }
}

export const accountAggregate: Aggregate<AccountState, AccountEvent, null> = {
  decode: decodeAccountEvent,
  found: (id, first, _ctx) => found(id, first, ''),
  evolve: (a, e, stored) => evolveAccount(a, e, stored.createdAt),
  follows: (type) => type === 'KeyIssued',
};

/** Checks a display name (PlayerRegistered, AppRegistered): 1-100 clean characters. */
function checkName(name: string): Result<string> {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > NAME_MAX || !isCleanText(trimmed)) return fail('INVALID_INPUT', `a name is 1-${NAME_MAX} characters, without control characters`);
  return ok(trimmed);
}

function checkScopes(kind: AccountKind, scopes: KeyScope[] | null): Result<KeyScope[]> {
  const allowed = scopesFor(kind);
  if (scopes === null) return ok([...allowed]);
  if (scopes.length === 0) return fail('INVALID_INPUT', 'a key needs at least one scope');
  const wrong = scopes.find((s) => !allowed.includes(s));
  if (wrong) return fail('INVALID_INPUT', `a ${kind}'s key cannot carry the scope "${wrong}" (it may carry: ${allowed.join(', ')})`);
  return ok(allowed.filter((s) => scopes.includes(s)));
}

const draft = (e: AccountEvent, createdAt: string): DraftEvent => ({ type: e.type, actor: null, moveId: null, bodyHash: null, payload: e.payload, createdAt });

/**
 * An account's decider: the events a command stands for, or its refusal. `state` is null for a
 * registration (which founds the stream). Ids come in with the command; time as `now`.
 */
export function decideAccount(accountId: string, state: AccountState | null, command: AccountCommand, now: string): Result<AccountDecision> {
  let events: AccountEvent[];
  if (command.type === 'RegisterPlayer' || command.type === 'RegisterApp') {
    if (state) return fail('INVALID_INPUT', 'the account is registered already');
    const name = checkName(command.name);
    if (!name.ok) return name;
    const kind: AccountKind = command.type === 'RegisterPlayer' ? 'player' : 'app';
    const scopes = checkScopes(kind, command.scopes);
    if (!scopes.ok) return scopes;
    let founding: AccountEvent;
    if (command.type === 'RegisterPlayer') {
      const { externalId, appId } = command;
      if (externalId !== null && !appId) return fail('INVALID_INPUT', "an externalId is an app's name for its player: only an app key may give one");
      if (externalId !== null && (externalId.length < 1 || externalId.length > EXTERNAL_ID_MAX || !isCleanText(externalId)))
        return fail('INVALID_INPUT', `an externalId is 1-${EXTERNAL_ID_MAX} characters, without control characters`);
      founding = { type: 'PlayerRegistered', payload: { name: name.value, externalId, appId } };
    } else founding = { type: 'AppRegistered', payload: { name: name.value } };
    events = [founding, { type: 'KeyIssued', payload: { keyId: command.keyId, scopes: scopes.value } }];
  } else {
    if (!state) return fail('NOT_FOUND', 'no such account');
    if (command.type === 'IssueKey') {
      const scopes = checkScopes(state.kind, command.scopes);
      if (!scopes.ok) return scopes;
      events = [{ type: 'KeyIssued', payload: { keyId: command.keyId, scopes: scopes.value } }];
    } else events = [{ type: command.type === 'RotateKey' ? 'KeyRotated' : 'KeyRevoked', payload: { keyId: command.keyId } }];
  }
  let next: AccountState | null = state;
  for (const e of events) {
    const evolved: Result<AccountState> = next ? evolveAccount(next, e, now) : found(accountId, e, now);
    if (!evolved.ok) return evolved;
    next = evolved.value;
  }
  return ok({ state: next as AccountState, drafts: events.map((e) => draft(e, now)) });
}

/** An account's stream folded, every hash checked; it was created when its first event was. */
export function foldAccount(accountId: string, events: readonly StoredEvent[], from?: Folded<AccountState>): Folded<AccountState> {
  const folded = foldStream(accountAggregate, accountId, events, null, { checkHashes: true, from });
  return from ? folded : { ...folded, createdAt: events[0].createdAt };
}
