import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { EventStore } from '../../src/referee/store/event-store.js';
import { MetricsService } from '../../src/ops/metrics.service.js';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { startApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(async () => {
  await t?.close();
});

/** A second referee instance on the same database, with its own cache (another server process). */
const otherInstance = () => new RefereeService(t.app.get(EventStore), t.app.get(EngineRegistry), new MetricsService());

describe('several referee instances on one database', () => {
  it('stores exactly one of two racing moves and still writes the other games of the same group', async () => {
    const a = t.app.get(RefereeService);
    const b = otherInstance();
    const contested = await a.createGame({ kind: 'duel' });
    const bystander = await a.createGame({ kind: 'duel' });
    const [g, h] = [contested.game, bystander.game];
    await b.game(g.gameId); // b caches the contested game at the same version
    const cardG = (a.answer(g, 0).legalActions[0] as { card: number }).card;
    const cardH = (a.answer(h, 0).legalActions[0] as { card: number }).card;
    const play = (card: number) => ({ type: 'play', card });
    const [fromA, fromB, other] = await Promise.all([
      a.act(g.gameId, contested.tokens[0].token, 'a-move', play(cardG), g.version),
      b.act(g.gameId, contested.tokens[0].token, 'b-move', play(cardG), g.version),
      a.act(h.gameId, bystander.tokens[0].token, 'h-move', play(cardH), h.version),
    ]);
    expect([fromA.accepted, fromB.accepted].filter(Boolean)).toHaveLength(1);
    expect([fromA, fromB].find((r) => !r.accepted)).toMatchObject({ code: 'VERSION_CONFLICT' });
    expect(other.accepted).toBe(true);
    expect((await otherInstance().verify(g.gameId)).ok).toBe(true);
  });

  it('re-decides a move without expectedVersion on the fresh state when its cache was stale', async () => {
    const a = t.app.get(RefereeService);
    const b = otherInstance();
    const { game, tokens } = await a.createGame({ kind: 'duel' });
    await b.game(game.gameId);
    const first = await a.act(game.gameId, tokens[0].token, 'first', { type: 'play', card: (a.answer(game, 0).legalActions[0] as { card: number }).card });
    expect(first.accepted).toBe(true);
    const fresh = await a.game(game.gameId);
    const seat = fresh.engine.toAct(fresh.state)[0];
    const card = (a.answer(fresh, seat).legalActions[0] as { card: number }).card;
    // b still holds the version before `first`; its append conflicts, it reloads and the move stands.
    const second = await b.act(game.gameId, tokens[seat].token, 'second', { type: 'play', card });
    expect(second).toMatchObject({ accepted: true, version: expect.any(Number) });
    expect((await otherInstance().verify(game.gameId)).ok).toBe(true);
  });

  it('a second instance serves a move stored by the first and tells its subscribers each new event once; a reader names the version it wrote', async () => {
    const a = t.app.get(RefereeService);
    const b = otherInstance();
    await b.onModuleInit();
    try {
      const { game, tokens } = await a.createGame({ kind: 'duel' });
      expect((await b.game(game.gameId)).version).toBe(game.version);
      const told: number[] = [];
      b.bus.on(game.gameId, (appended: { steps: { event: { seq: number } }[] }) => told.push(...appended.steps.map((s) => s.event.seq)));
      const card = (a.answer(game, 0).legalActions[0] as { card: number }).card;
      const moved = await a.act(game.gameId, tokens[0].token, 'told', { type: 'play', card });
      if (!moved.accepted) throw new Error(moved.message);
      // Told through the database's notification (or directly, on the embedded one): no polling by b.
      for (let i = 0; (await b.game(game.gameId)).version < moved.version; i++) {
        if (i > 1000) throw new Error('b never caught up');
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(told).toEqual(Array.from({ length: moved.version - game.version }, (_, i) => game.version + 1 + i));
      // Read-your-writes does not wait for the notification at all.
      const c = otherInstance();
      await c.game(game.gameId);
      const now = await a.game(game.gameId);
      const seat = now.engine.toAct(now.state)[0];
      const next = (a.answer(now, seat).legalActions[0] as { card: number }).card;
      const again = await a.act(game.gameId, tokens[seat].token, 'told-2', { type: 'play', card: next });
      if (!again.accepted) throw new Error(again.message);
      expect((await c.game(game.gameId, undefined, again.version)).version).toBeGreaterThanOrEqual(again.version);
      await expect(c.game(game.gameId, undefined, again.version + 100)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    } finally {
      await b.onModuleDestroy();
    }
  });

  it('REST: ?atLeastVersion reads your writes; the ETag names version and seat, and If-None-Match answers 304 until the game moves', async () => {
    const a = t.app.get(RefereeService);
    const { game, tokens } = await a.createGame({ kind: 'duel' });
    const url = `${t.url}/api/games/${game.gameId}`;
    const first = await fetch(url);
    const etag = first.headers.get('etag')!;
    expect(etag).toBe(`"${game.version}-spectator"`);
    expect((await fetch(url, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const mine = await fetch(url, { headers: { authorization: `Bearer ${tokens[0].token}`, 'if-none-match': etag } });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('etag')).toBe(`"${game.version}-0"`);
    const moved = await a.act(game.gameId, tokens[0].token, 'etag', { type: 'play', card: (a.answer(game, 0).legalActions[0] as { card: number }).card });
    if (!moved.accepted) throw new Error(moved.message);
    const after = await fetch(`${url}?atLeastVersion=${moved.version}`, { headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect((await after.json()).version).toBe(moved.version);
    const ahead = await fetch(`${url}?atLeastVersion=${moved.version + 50}`);
    expect([ahead.status, (await ahead.json()).error.code]).toEqual([400, 'INVALID_INPUT']);
    expect((await fetch(`${url}?atLeastVersion=-1`)).status).toBe(400);
  });
});
