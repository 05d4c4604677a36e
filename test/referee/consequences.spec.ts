import { Logger } from '@nestjs/common';
import { type ConsequenceHandler, GameConsequences } from '../../src/referee/application/consequences.js';
import type { LiveGame } from '../../src/referee/application/live-games.js';
import type { RefereeMetrics } from '../../src/referee/application/metrics.port.js';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { AppendConflict } from '../../src/referee/store/event-store.js';
import { MemoryEventStore } from '../../src/referee/store/memory-event-store.js';
import { duelEngine, type DuelState } from '../support/duel-engine.js';

/** Consequences over the in-memory store: a registered handler's rows are stored with the events that imply them, or not at all. */
const registry = EngineRegistry.of([duelEngine]);
const metrics: RefereeMetrics = { inc: () => {}, observe: () => {} };
beforeAll(() => Logger.overrideLogger(false));

const NOTED = 'noted';

/** A projection that notes each stored event, by the instance that derived it; and what it was told. */
function noting(by: string) {
  const told = { stored: [] as unknown[][] };
  const handler: ConsequenceHandler<LiveGame> = {
    projection: NOTED,
    rowsOf: async (_before, _after, events) => events.map((e) => ({ by, seq: e.seq, type: e.type })),
    stored: (_before, _after, rows) => told.stored.push([...rows]),
  };
  return { handler, told };
}

/** A referee over `store` whose appends are noted by `by`. */
function instance(store: MemoryEventStore, by: string) {
  const consequences = new GameConsequences();
  const { handler, told } = noting(by);
  consequences.register(handler);
  return { referee: new RefereeService(store, registry, metrics, undefined, undefined, null, undefined, consequences), told };
}

async function newDuel() {
  const store = new MemoryEventStore();
  const a = instance(store, 'a');
  const { game, tokens } = await a.referee.createGame({ kind: 'duel' });
  const seat = duelEngine.toAct(game.state as DuelState)[0];
  const card = (game.state as DuelState).hands[seat][0];
  return { store, a, id: game.gameId, token: tokens[seat].token, card, version: game.version };
}

describe('consequences of an append', () => {
  it("stores a handler's rows with the events that imply them, a new game's with its creation, and tells it what was stored", async () => {
    const { store, a, id, token, card, version } = await newDuel();
    const created = (await store.events(id, 0)).map((e) => ({ by: 'a', seq: e.seq, type: e.type }));
    expect(created.length).toBeGreaterThan(0);
    expect(store.projected(NOTED)).toEqual(created);
    expect(a.told.stored).toEqual([created]);

    const move = await a.referee.act(id, token, 'm1', { type: 'play', card });
    expect(move.accepted).toBe(true);
    const stored = await store.events(id, version);
    expect(stored.length).toBeGreaterThan(0);
    const rows = stored.map((e) => ({ by: 'a', seq: e.seq, type: e.type }));
    expect(store.projected(NOTED)).toEqual([...created, ...rows]);
    expect(a.told.stored).toEqual([created, rows]);
  });

  it('stores none of the rows of an append that lost its race, nor tells of them', async () => {
    const { store, a, id, token, card, version } = await newDuel();
    const b = instance(store, 'b');
    await b.referee.game(id);
    const [projectedBefore, toldBefore] = [store.projected(NOTED).length, { a: a.told.stored.length, b: 0 }];
    const results = await Promise.all([a.referee.act(id, token, 'from-a', { type: 'play', card }, version), b.referee.act(id, token, 'from-b', { type: 'play', card }, version)]);
    expect(results.filter((r) => r.accepted)).toHaveLength(1);
    const winner = results[0].accepted ? 'a' : 'b';
    const loser = winner === 'a' ? 'b' : 'a';
    const rows = (await store.events(id, version)).map((e) => ({ by: winner, seq: e.seq, type: e.type }));
    expect(store.projected(NOTED).slice(projectedBefore)).toEqual(rows);
    expect({ a, b }[loser].told.stored.slice(toldBefore[loser])).toEqual([]);
  });

  it('a conflicting append stores neither its events nor its rows', async () => {
    const { store, a, id, token, card, version } = await newDuel();
    await a.referee.act(id, token, 'm1', { type: 'play', card });
    const before = [...store.projected(NOTED)];
    const late = { ...(await store.events(id, version, 1))[0], payload: { late: true } };
    const head = { status: 'ACTIVE' as const, version: late.seq, hash: late.hash, result: null };
    await expect(store.append(id, [late], head, [{ projection: NOTED, rows: [{ by: 'late' }] }])).rejects.toBeInstanceOf(AppendConflict);
    expect(store.projected(NOTED)).toEqual(before);
    expect((await store.events(id)).some((e) => e.payload.late)).toBe(false);
  });
});
