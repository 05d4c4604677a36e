import request from 'supertest';
import { AccountService } from '../../src/referee/application/accounts.js';
import { TournamentService } from '../../src/referee/application/tournament.service.js';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp({ rateLimitPerMinute: 3, addressRateLimitPerMinute: 4, addressSeatsRateLimitPerMinute: 100 });
});
afterAll(async () => {
  await t?.close();
});

const read = (token?: string) => {
  const req = request(t.app.getHttpServer()).get('/api/games/AAAAAAAAAAAA');
  return (token ? req.set('authorization', `Bearer ${token}`) : req).then((res) => res.status);
};
const times = async (n: number, token?: string) => {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push(await read(token));
  return statuses;
};

describe('rate budgets per credential (docs/operating.md)', () => {
  it("gives each player's key, app's key and participant token a budget of its own; a made-up, rotated or revoked key counts against its address", async () => {
    // Made outside HTTP, so that no request is counted before the test's own.
    const accounts = t.app.get(AccountService);
    const player = await accounts.registerPlayer({ name: 'Ada', externalId: null, scopes: null }, null);
    const app = await accounts.registerApp({ name: 'Club', scopes: null });
    const spare = await accounts.issueKey({ owner: 'player', ownerId: player.account.accountId, keyId: player.key.key.keyId, scopes: player.account.keys[0].scopes }, null);
    const tournaments = t.app.get(TournamentService);
    const { tournament, organizerToken } = await tournaments.create({ kind: 'duel', format: 'swiss', rounds: 1 });
    const { participantToken } = await tournaments.register(tournament.tournamentId, organizerToken, { name: 'Bo' });

    // The spare key is seen valid once, then revoked.
    expect(await read(spare.secret)).toBe(404);
    await accounts.revokeKey({ owner: 'player', ownerId: player.account.accountId, keyId: player.key.key.keyId, scopes: player.account.keys[0].scopes }, spare.key.keyId);

    // Anonymous: the address's 4 a minute.
    expect(await times(5)).toEqual([404, 404, 404, 404, 429]);
    // Each credential its own 3, whatever its address spent.
    expect(await times(4, player.key.secret)).toEqual([404, 404, 404, 429]);
    expect(await times(4, app.key.secret)).toEqual([404, 404, 404, 429]);
    expect(await times(4, participantToken)).toEqual([404, 404, 404, 429]);
    // No fresh budget for a key that is no key (any more): the address's, spent.
    expect(await read(spare.secret)).toBe(429);
    expect(await read(`arbk_${'A'.repeat(43)}`)).toBe(429);
    expect(await read(`arba_${'B'.repeat(43)}`)).toBe(429);
  });
});
