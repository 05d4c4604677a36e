import { Logger } from '@nestjs/common';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import type { RefereeMetrics } from '../../src/referee/application/metrics.port.js';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { MemoryEventStore } from '../../src/referee/store/memory-event-store.js';
import { duelEngine, type DuelState } from '../support/duel-engine.js';

/** The command handler over the in-memory store: retries, races between instances, stale caches, shutdown. */
const registry = EngineRegistry.of([duelEngine]);
const metrics: RefereeMetrics = { inc: () => {}, observe: () => {} };
beforeAll(() => Logger.overrideLogger(false));

const instance = (store: MemoryEventStore) => new RefereeService(store, registry, metrics);

async function newDuel() {
  const store = new MemoryEventStore();
  const a = instance(store);
  const { game, tokens } = await a.createGame({ kind: 'duel' });
  const seat = duelEngine.toAct(game.state as DuelState)[0];
  const card = (game.state as DuelState).hands[seat][0];
  return { store, a, id: game.gameId, token: (s: number) => tokens[s].token, seat, card, version: game.version };
}

describe('referee commands', () => {
  it('answers a retry with the original result and refuses the same id for another move', async () => {
    const { a, id, token, seat, card } = await newDuel();
    const first = await a.act(id, token(seat), 'm1', { type: 'play', card });
    const again = await a.act(id, token(seat), 'm1', { type: 'play', card });
    expect(again).toEqual(first);
    expect((await a.game(id)).version).toBe(first.accepted && first.version);
    expect(await a.act(id, token(seat), 'm1', { type: 'play', card: card + 1 })).toMatchObject({ accepted: false, code: 'MOVE_ID_REUSED' });
  });

  it('stores exactly one of two racing moves from two instances at the same expected version', async () => {
    const { store, a, id, token, seat, card, version } = await newDuel();
    const b = instance(store);
    await b.game(id);
    const results = await Promise.all([a.act(id, token(seat), 'from-a', { type: 'play', card }, version), b.act(id, token(seat), 'from-b', { type: 'play', card }, version)]);
    expect(results.filter((r) => r.accepted)).toHaveLength(1);
    expect(results.find((r) => !r.accepted)).toMatchObject({ code: 'VERSION_CONFLICT' });
    expect((await instance(store).verify(id)).ok).toBe(true);
  });

  it('confirms a refusal made from a stale cache against the store, then decides on fresh state', async () => {
    const { store, a, id, token, seat, card } = await newDuel();
    const b = instance(store);
    await b.game(id);
    expect(await a.act(id, token(seat), 'first', { type: 'play', card })).toMatchObject({ accepted: true });
    const fresh = await a.game(id);
    const next = duelEngine.toAct(fresh.state as DuelState)[0];
    // b still thinks it is `seat`'s turn: its NOT_YOUR_TURN is checked against the stored version first.
    const second = await b.act(id, token(next), 'second', { type: 'play', card: (fresh.state as DuelState).hands[next][0] });
    expect(second).toMatchObject({ accepted: true });
    expect((await instance(store).verify(id)).ok).toBe(true);
  });

  it('refuses a token of another game and acting without one', async () => {
    const one = await newDuel();
    const other = await one.a.createGame({ kind: 'duel' });
    expect(await one.a.act(one.id, other.tokens[0].token, 'x', { type: 'play', card: 0 })).toMatchObject({ accepted: false, code: 'UNAUTHORIZED' });
    expect(await one.a.act(one.id, null, 'x', { type: 'play', card: 0 })).toMatchObject({ accepted: false, code: 'UNAUTHORIZED' });
  });

  it('takes no command once draining for shutdown', async () => {
    const { a, id, token, seat, card } = await newDuel();
    await a.drain();
    expect(await a.act(id, token(seat), 'late', { type: 'play', card })).toMatchObject({ accepted: false, code: 'SHUTTING_DOWN' });
  });

  it('exports a finished game as a record and imports it as the same game', async () => {
    const { a, id, token } = await newDuel();
    expect(await a.resign(id, token(0), 'bye')).toMatchObject({ accepted: true, status: 'FINISHED' });
    const { text } = await a.record(id);
    const copy = await a.importRecord('duel', text);
    expect(copy.game).toMatchObject({ status: 'FINISHED', imported: true, randomSource: 'supplied' });
    expect(copy.game.state).toEqual((await a.game(id)).state);
  });
});
