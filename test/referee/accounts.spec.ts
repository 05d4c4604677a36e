import fc from 'fast-check';
import { type AccountCommand, type AccountState, decideAccount, foldAccount, KEY_SCOPES, type KeyScope, scopesFor } from '../../src/referee/core/account/account.js';
import { advanceHead, chainEvents, emptyHead, type StoredEvent } from '../../src/referee/core/stream.js';

const NOW = '2026-12-05T10:00:00.000Z';
const register = (c: Partial<Extract<AccountCommand, { type: 'RegisterPlayer' }>> = {}): AccountCommand => ({
  type: 'RegisterPlayer',
  name: 'Ada',
  externalId: null,
  appId: null,
  keyId: 'key-1',
  scopes: null,
  ...c,
});

/** Decides `commands` one after another, chaining what each decided; the stream and the state. */
function run(commands: AccountCommand[]): { state: AccountState | null; events: StoredEvent[]; refusals: string[] } {
  let state: AccountState | null = null;
  let head = emptyHead();
  const events: StoredEvent[] = [];
  const refusals: string[] = [];
  for (const c of commands) {
    const d = decideAccount('pl-1', state, c, NOW);
    if (!d.ok) {
      refusals.push(d.error.code);
      continue;
    }
    const chained = chainEvents('pl-1', head, d.value.drafts);
    head = advanceHead(head, chained, () => false);
    events.push(...chained);
    state = d.value.state;
  }
  return { state, events, refusals };
}

describe('a player account', () => {
  it('is registered with a first key carrying every scope a player may hold, and no app scope', () => {
    const { state, events } = run([register()]);
    expect(events.map((e) => e.type)).toEqual(['PlayerRegistered', 'KeyIssued']);
    expect(state?.keys).toEqual([{ keyId: 'key-1', scopes: ['read', 'play', 'create_games', 'tournaments', 'webhooks'], issuedAt: NOW, rotatedAt: null, revokedAt: null }]);
  });

  it('refuses an externalId given without an app, a blank name and a player key with the players scope', () => {
    expect(run([register({ externalId: 'x' })]).refusals).toEqual(['INVALID_INPUT']);
    expect(run([register({ name: '  ' })]).refusals).toEqual(['INVALID_INPUT']);
    expect(run([register({ scopes: ['players'] })]).refusals).toEqual(['INVALID_INPUT']);
    expect(run([register({ scopes: [] })]).refusals).toEqual(['INVALID_INPUT']);
  });

  it('rotates and revokes a key once; a revoked key is neither rotated nor revoked again', () => {
    const { state, refusals } = run([
      register(),
      { type: 'RotateKey', keyId: 'key-1' },
      { type: 'RevokeKey', keyId: 'key-1' },
      { type: 'RotateKey', keyId: 'key-1' },
      { type: 'RevokeKey', keyId: 'key-1' },
      { type: 'RevokeKey', keyId: 'key-9' },
    ]);
    expect(refusals).toEqual(['KEY_REVOKED', 'KEY_REVOKED', 'NOT_FOUND']);
    expect(state?.keys[0]).toMatchObject({ rotatedAt: NOW, revokedAt: NOW });
  });
});

const scope = fc.constantFrom(...KEY_SCOPES);
const command: fc.Arbitrary<AccountCommand> = fc.oneof(
  fc.record({ type: fc.constant('IssueKey' as const), keyId: fc.constantFrom('key-1', 'key-2', 'key-3'), scopes: fc.option(fc.array(scope, { maxLength: 4 }), { nil: null }) }),
  fc.record({ type: fc.constant('RotateKey' as const), keyId: fc.constantFrom('key-1', 'key-2', 'key-3') }),
  fc.record({ type: fc.constant('RevokeKey' as const), keyId: fc.constantFrom('key-1', 'key-2', 'key-3') }),
);

describe('any sequence of key commands', () => {
  it('folds from its stream into the state the decider reached, and no key ever carries a scope its account may not hold', () => {
    fc.assert(
      fc.property(fc.constantFrom<'player' | 'app'>('player', 'app'), fc.array(command, { maxLength: 20 }), (kind, commands) => {
        const first: AccountCommand = kind === 'player' ? register() : { type: 'RegisterApp', name: 'Club', keyId: 'key-1', scopes: null };
        const { state, events } = run([first, ...commands]);
        const folded = foldAccount('pl-1', events);
        const { version: _v, lastHash: _h, commands: _c, lastCommand: _l, ...foldedState } = folded;
        expect(foldedState).toEqual(state);
        for (const k of state?.keys ?? []) expect(k.scopes.every((s: KeyScope) => scopesFor(kind).includes(s))).toBe(true);
      }),
    );
  });
});
