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
    const cardG = (a.legalActions(g, 0)[0] as { card: number }).card;
    const cardH = (a.legalActions(h, 0)[0] as { card: number }).card;
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
    const first = await a.act(game.gameId, tokens[0].token, 'first', { type: 'play', card: (a.legalActions(game, 0)[0] as { card: number }).card });
    expect(first.accepted).toBe(true);
    const fresh = await a.game(game.gameId);
    const seat = fresh.engine.toAct(fresh.state)[0];
    const card = (a.legalActions(fresh, seat)[0] as { card: number }).card;
    // b still holds the version before `first`; its append conflicts, it reloads and the move stands.
    const second = await b.act(game.gameId, tokens[seat].token, 'second', { type: 'play', card });
    expect(second).toMatchObject({ accepted: true, version: expect.any(Number) });
    expect((await otherInstance().verify(game.gameId)).ok).toBe(true);
  });
});
