/**
 * Event reads of a running hidden-information game: `npm run build && node dist/bench/event-reads.js`.
 * Plays a long Chicken Foot game (classic, 4 players, double-18 set, played to a score never reached) in process, on an in-memory
 * store, up to several lengths, and times
 * - polling: after every move, one viewer (seat 0) reads the events after the last it saw;
 * - paging: a fresh service (its caches cold) pages through all the events, 100 at a time;
 * with the per-game view cache (`GameQueries.servedEvents`) and, for comparison, as events were
 * served before it: the stream folded from its first event on every read (up to `--old-max`
 * events, default 2000, as that grows with the square of the length). Each run checks that what
 * it served equals the whole stream folded once.
 */
import { Logger } from '@nestjs/common';
import { type ChickenFootAction, type ChickenFootState, chickenFootEngine } from '../src/games/chicken-foot/engine/index.js';
import { seededRandom, type Viewer } from '../src/engines/kit/index.js';
import type { RefereeMetrics } from '../src/referee/application/metrics.port.js';
import { RefereeService } from '../src/referee/application/referee.service.js';
import { Slicer } from '../src/referee/application/slices.js';
import { EngineRegistry } from '../src/referee/core/engine-registry.js';
import { foldGameInSlices } from '../src/referee/core/game/fold.js';
import { viewEvent } from '../src/referee/core/game/views.js';
import type { StoredEvent } from '../src/referee/core/stream.js';
import type { GameHead, NewGame, SeatClaim, SeatRow } from '../src/referee/store/event-store.js';
import { MemoryEventStore } from '../src/referee/store/memory-event-store.js';

const LENGTHS = [500, 1000, 2000, 4000, 8000, 16000];
/** Long enough for every length: rounds go on until someone scores that much. */
const RULESET = { preset: 'classic', players: 4, setMax: 18, gameEnd: { targetScore: 100_000 } };
/** Runs with the cache per length (the fastest is shown: the others carry garbage collection and compilation). */
const REPEATS = 3;
const PAGE = 100;
const VIEWER: Viewer = 0;

const args = process.argv.slice(2);
const oldMaxAt = args.indexOf('--old-max');
const oldMax = oldMaxAt >= 0 ? Number(args[oldMaxAt + 1]) : 2000;

/** The in-memory store with a read in time linear in what is read (the test store filters the whole stream). */
class IndexedStore extends MemoryEventStore {
  private readonly byGame = new Map<string, StoredEvent[]>();

  override async createGame(game: NewGame, seats: SeatRow[], events: StoredEvent[]): Promise<void> {
    await super.createGame(game, seats, events);
    this.byGame.set(game.id, [...events]);
  }

  override async append(gameId: string, events: StoredEvent[], head: GameHead): Promise<void> {
    await super.append(gameId, events, head);
    this.byGame.get(gameId)!.push(...events);
  }

  override async join(gameId: string, events: StoredEvent[], head: GameHead, seat: SeatClaim): Promise<void> {
    await super.join(gameId, events, head, seat);
    this.byGame.get(gameId)!.push(...events);
  }

  override async events(gameId: string, afterSeq = 0, limit?: number, untilSeq?: number): Promise<StoredEvent[]> {
    const stream = this.byGame.get(gameId) ?? [];
    const until = Math.min(untilSeq ?? stream.length, afterSeq + (limit ?? stream.length));
    return stream.slice(afterSeq, Math.max(afterSeq, until));
  }
}

const registry = EngineRegistry.of([chickenFootEngine]);
const metrics: RefereeMetrics = { inc: () => {}, observe: () => {} };
const slicer = new Slicer();

/** Events as served before the cache: the stream folded from seq 1 on every read. */
async function wholeFold(store: MemoryEventStore, referee: RefereeService, id: string, afterSeq: number, viewer: Viewer, limit = 1000): Promise<StoredEvent[]> {
  const game = await referee.game(id);
  const all = await store.events(id, 0, undefined, Math.min(game.version, afterSeq + limit));
  const served: StoredEvent[] = [];
  await slicer.run(
    foldGameInSlices(registry, id, all, null, {
      onEvent: (e, _event, before, after) => {
        if (e.seq > afterSeq) served.push(viewEvent(game, e, before.state, after.state, viewer));
      },
    }),
  );
  return served;
}

type Read = (store: MemoryEventStore, referee: RefereeService, id: string, afterSeq: number, limit?: number) => Promise<StoredEvent[]>;

interface Run {
  events: number;
  pollMs: number;
  pageMs: number;
}

/** Plays one game to `length` events, the viewer polling after each move, then pages through it. */
async function run(length: number, read: Read): Promise<Run> {
  const store = new IndexedStore();
  const referee = new RefereeService(store, registry, metrics);
  const { game, tokens } = await referee.createGame({ kind: 'chicken-foot', ruleset: RULESET });
  const id = game.gameId;
  const random = seededRandom(length);
  let seen = 0;
  let pollMs = 0;
  const polled: StoredEvent[] = [];
  for (let moves = 0; ; moves++) {
    const current = await referee.game(id);
    if (current.ended) throw new Error(`the game ended after ${current.version} events, before ${length}`);
    if (current.version >= length) break;
    const state = current.state as ChickenFootState;
    const seat = chickenFootEngine.toAct(state)[0];
    const legal = chickenFootEngine.legalActions(state, seat) as ChickenFootAction[];
    const answer = await referee.act(id, tokens[seat].token, `m${moves}`, legal[random(legal.length)]);
    if (!answer.accepted) throw new Error(`move refused: ${answer.message}`);
    const start = performance.now();
    const events = await read(store, referee, id, seen);
    pollMs += performance.now() - start;
    seen = events.at(-1)?.seq ?? seen;
    polled.push(...events);
  }
  const fresh = new RefereeService(store, registry, metrics);
  await fresh.game(id);
  const start = performance.now();
  const paged: StoredEvent[] = [];
  for (let after = 0; ; after += PAGE) {
    const page = await read(store, fresh, id, after, PAGE);
    if (page.length === 0) break;
    paged.push(...page);
  }
  const pageMs = performance.now() - start;
  const served = JSON.stringify(paged);
  if (JSON.stringify(polled) !== served) throw new Error('polling and paging served different events');
  if (JSON.stringify(await wholeFold(store, fresh, id, 0, VIEWER, length)) !== served) throw new Error('the events served differ from the whole fold');
  return { events: paged.length, pollMs, pageMs };
}

const cached: Read = (_store, referee, id, afterSeq, limit) => referee.events(id, afterSeq, VIEWER, limit);
const old: Read = (store, referee, id, afterSeq, limit) => wholeFold(store, referee, id, afterSeq, VIEWER, limit);

const ms = (t: number) => `${t.toFixed(0).padStart(7)} ms`;
const perEvent = (t: number, events: number) => `${((t * 1000) / events).toFixed(1).padStart(6)} µs/event`;

Logger.overrideLogger(false);
console.log(`Event reads of a running Chicken Foot game (classic, 4 players, double-18, to 100,000 points), viewer seat ${VIEWER}, in process`);
console.log('polling: the new events after every move; paging: all events, 100 a page, on a cold service');
await run(1000, cached); // warm-up
for (const length of LENGTHS) {
  const runs: Run[] = [];
  for (let i = 0; i < REPEATS; i++) runs.push(await run(length, cached));
  const now = { events: length, pollMs: Math.min(...runs.map((r) => r.pollMs)), pageMs: Math.min(...runs.map((r) => r.pageMs)) };
  const line = `${String(now.events).padStart(5)} events  cache: poll ${ms(now.pollMs)} (${perEvent(now.pollMs, now.events)}), page ${ms(now.pageMs)} (${perEvent(now.pageMs, now.events)})`;
  if (length > oldMax) {
    console.log(`${line}  whole fold: skipped (over --old-max ${oldMax})`);
    continue;
  }
  const before = await run(length, old);
  console.log(`${line}  whole fold: poll ${ms(before.pollMs)} (${perEvent(before.pollMs, before.events)}), page ${ms(before.pageMs)} (${perEvent(before.pageMs, before.events)})`);
}
