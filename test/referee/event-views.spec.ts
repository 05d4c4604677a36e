import { Logger } from '@nestjs/common';
import fc from 'fast-check';
import { type ChickenFootAction, type ChickenFootState, chickenFootEngine } from '../../src/games/chicken-foot/engine/index.js';
import { seededRandom, type Viewer } from '../../src/engines/kit/index.js';
import { EventViews } from '../../src/referee/application/event-views.js';
import { GameQueries } from '../../src/referee/application/game-queries.js';
import { liveGames } from '../../src/referee/application/live-games.js';
import type { RefereeMetrics } from '../../src/referee/application/metrics.port.js';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { TokenDirectory } from '../../src/referee/application/directories.js';
import { NoKeys } from '../../src/referee/application/key-holders.js';
import { SeatTokens } from '../../src/referee/application/seat-tokens.js';
import { Slicer } from '../../src/referee/application/slices.js';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { foldGame } from '../../src/referee/core/game/fold.js';
import { viewEvent } from '../../src/referee/core/game/views.js';
import type { StoredEvent } from '../../src/referee/core/stream.js';
import { MemoryEventStore } from '../../src/referee/store/memory-event-store.js';

/** Events of running Chicken Foot games served per viewer from the per-game cache, checked against folding the whole stream. */
const registry = EngineRegistry.of([chickenFootEngine]);
const metrics: RefereeMetrics = { inc: () => {}, observe: () => {} };
beforeAll(() => Logger.overrideLogger(false));

/** A whole game on a double-6 set: a few hundred events. */
const SHORT = { preset: 'classic', setMax: 6, handSize: 5 };

/** Counts the events the store hands out, per seq. */
class CountingStore extends MemoryEventStore {
  readonly reads = new Map<number, number>();

  override async events(gameId: string, afterSeq = 0, limit?: number, untilSeq?: number): Promise<StoredEvent[]> {
    const events = await super.events(gameId, afterSeq, limit, untilSeq);
    for (const e of events) this.reads.set(e.seq, (this.reads.get(e.seq) ?? 0) + 1);
    return events;
  }

  get total(): number {
    return [...this.reads.values()].reduce((a, b) => a + b, 0);
  }
}

/** Reads events from another source once it is set. */
class RedirectedStore extends MemoryEventStore {
  source: Pick<MemoryEventStore, 'events'>;

  constructor(initial: Pick<MemoryEventStore, 'events'>) {
    super();
    this.source = initial;
  }

  override events(gameId: string, afterSeq?: number, limit?: number, untilSeq?: number): Promise<StoredEvent[]> {
    return this.source.events(gameId, afterSeq, limit, untilSeq);
  }
}

async function newGame(players: number, ruleset: object = SHORT, store = new CountingStore()) {
  const referee = new RefereeService(store, registry, metrics);
  const { game, tokens } = await referee.createGame({ kind: 'chicken-foot', ruleset: { ...ruleset, players } });
  const id = game.gameId;
  let moves = 0;
  /** The seat to act plays a random legal action; false once the game is over. */
  const move = async (random: (n: number) => number): Promise<boolean> => {
    const current = await referee.game(id);
    if (current.ended) return false;
    const state = current.state as ChickenFootState;
    const seat = chickenFootEngine.toAct(state)[0];
    const legal = chickenFootEngine.legalActions(state, seat) as ChickenFootAction[];
    const answer = await referee.act(id, tokens[seat].token, `m${moves++}`, legal[random(legal.length)]);
    if (!answer.accepted) throw new Error(`move refused: ${answer.message}`);
    return true;
  };
  return { store, referee, id, move };
}

/** What was served before the cache: the whole stream folded on every read. */
async function reference(store: MemoryEventStore, id: string, afterSeq: number, viewer: Viewer, untilSeq: number): Promise<StoredEvent[]> {
  const game = await new RefereeService(store, registry, metrics).game(id);
  if (game.ended) return store.events(id, afterSeq, undefined, untilSeq);
  const served: StoredEvent[] = [];
  foldGame(registry, id, await store.events(id, 0, undefined, untilSeq), null, {
    onEvent: (e, _event, before, after) => {
      if (e.seq > afterSeq) served.push(viewEvent(game, e, before.state, after.state, viewer));
    },
  });
  return served;
}

const read = fc.record({ at: fc.nat({ max: 260 }), after: fc.nat(), limit: fc.oneof(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 1000 })), viewer: fc.nat() });
type ReadOp = typeof read extends fc.Arbitrary<infer T> ? T : never;

describe('event views of hidden-information games', () => {
  it('serves every viewer the same events as folding the whole stream, while the game goes on and after it ends', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 4 }), fc.nat(), fc.array(read, { minLength: 1, maxLength: 25 }), async (players, seed, reads) => {
        const { store, referee, id, move } = await newGame(players);
        const random = seededRandom(seed);
        let moved = 0;
        const check = async (r: ReadOp, viewerShift: number) => {
          const version = (await referee.game(id)).version;
          const afterSeq = r.after % (version + 2);
          const slot = (r.viewer + viewerShift) % (players + 1);
          const viewer: Viewer = slot === players ? 'spectator' : slot;
          const served = await referee.events(id, afterSeq, viewer, r.limit);
          const expected = await reference(store, id, afterSeq, viewer, Math.min(version, afterSeq + r.limit));
          expect(JSON.stringify(served)).toBe(JSON.stringify(expected));
        };
        for (const r of [...reads].sort((a, b) => a.at - b.at)) {
          while (moved < r.at && (await move(random))) moved++;
          // Two readers at once (another viewer): they share one fold.
          await Promise.all([check(r, 0), check(r, 1)]);
        }
      }),
      { seed: 20240917, numRuns: 40 },
    );
  });

  it('reads each stored event a bounded number of times when every viewer reads the new events after each move', async () => {
    const players = 4;
    const { store, referee, id, move } = await newGame(players, { preset: 'classic' });
    const random = seededRandom(7);
    const viewers: Viewer[] = [0, 1, 2, 3, 'spectator'];
    const seen = viewers.map(() => 0);
    let readByQueries = 0;
    let going = true;
    while (going) {
      going = await move(random);
      const before = store.total;
      for (const [i, viewer] of viewers.entries()) {
        const events = await referee.events(id, seen[i], viewer);
        seen[i] = events.at(-1)?.seq ?? seen[i];
      }
      readByQueries += store.total - before;
    }
    const version = (await referee.game(id)).version;
    expect(seen).toEqual(viewers.map(() => version));
    expect(version).toBeGreaterThan(500);
    // One read to fold each event, one per viewer to serve it: never the whole stream again.
    expect(readByQueries).toBeLessThanOrEqual((viewers.length + 1) * version);
    expect(Math.max(...store.reads.values())).toBeLessThanOrEqual(viewers.length + 2);
  });

  it('holds at most its bound of games and no finished one', async () => {
    const store = new CountingStore();
    const slicer = new Slicer();
    const views = new EventViews(store, registry, slicer, 3);
    const games = [];
    for (let i = 0; i < 5; i++) games.push(await newGame(2, SHORT, store));
    for (const g of games) {
      await g.move(seededRandom(1));
      await views.served(g.id, 0, 0, (await g.referee.game(g.id)).version);
      expect(views.size).toBeLessThanOrEqual(3);
    }
    expect(views.size).toBe(3);

    // A game read to its end is dropped; so is one a query finds ended.
    const [ended, endedLater] = games.slice(3);
    const random = seededRandom(2);
    while (await ended.move(random));
    expect(await views.served(ended.id, 0, 'spectator', (await ended.referee.game(ended.id)).version)).toHaveLength((await ended.referee.game(ended.id)).version);
    expect(views.size).toBe(2);
    while (await endedLater.move(random));
    const queries = new GameQueries(liveGames(store, registry, slicer), new SeatTokens(store, new TokenDirectory(), new NoKeys()), store, registry, slicer, views);
    expect(await queries.events(endedLater.id, 0, 1)).toEqual(await store.events(endedLater.id));
    expect(views.size).toBe(1);
  });

  it('folds a game again from its start when its stored events do not continue the cached state', async () => {
    const a = await newGame(3);
    const store = new RedirectedStore(a.store);
    const views = new EventViews(store, registry, new Slicer());
    const random = seededRandom(3);
    for (let i = 0; i < 5; i++) await a.move(random);
    const cached = (await a.referee.game(a.id)).version;
    await views.served(a.id, 0, 0, cached);
    // Another, longer stream under the same id (the store replaced): its events do not chain onto the cached ones.
    const b = await newGame(3);
    for (let i = 0; i < 10; i++) await b.move(random);
    const events = await b.store.events(b.id);
    expect(events.length).toBeGreaterThan(cached);
    store.source = { events: (_id, ...rest) => b.store.events(b.id, ...rest) };
    const expected = await new EventViews(b.store, registry, new Slicer()).served(b.id, 0, 1, events.length);
    expect(await views.served(a.id, 0, 1, events.length)).toEqual(expected);
  });
});
