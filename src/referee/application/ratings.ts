import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy, Optional } from '@nestjs/common';
import { EngineRegistry } from '../core/engine-registry.js';
import { RefereeError } from '../core/errors.js';
import { foldGame } from '../core/game/fold.js';
import {
  type GameRatedPayload,
  isPoolId,
  isProvisional,
  type PoolState,
  parametersOf,
  poolIdOf,
  RATING_FAMILIES,
  type RatedGame,
  type RatingFamily,
  ratedGameOf,
  ratingPool,
  ratingSystemOf,
} from '../core/rating/pool.js';
import { type RatingMismatch, ratingCommandId, ratingDrafts, recomputePool } from '../core/rating/recompute.js';
import { chainEvents, emptyHead, type Folded, foldStream, type StoredEvent, StreamError } from '../core/stream.js';
import { AppendConflict, EventStore } from '../store/event-store.js';
import { type QueuedGame, RATING_QUEUE, type RatingChangeRow, type RatingRow, RatingStore } from '../store/rating-store.js';
import { Clock, SystemClock } from './clock.js';
import type { ConsequenceHandler } from './consequences.js';
import { GameConsequences } from './consequences.js';
import { HeldStreams } from './held-streams.js';
import type { LiveGame } from './live-games.js';
import { RefereeService } from './referee.service.js';
import { type Advanced, StreamCommands, type StreamWriter } from './stream-commands.js';
import { StoredStreams } from './stored-streams.js';

/** A pool's stream as held: folded, every hash checked. */
export type LivePool = Folded<PoolState>;
type PoolBatch = { poolId: string; events: StoredEvent[] };
type Rating = { drafts: ReturnType<typeof ratingDrafts>['drafts']; rated: GameRatedPayload };
type AdvancedPool = Advanced<LivePool, PoolBatch> & { rated: GameRatedPayload };

/** Queue rows taken at a time. */
const DRAIN_BATCH = 100;
const DEFAULT_PAGE = 20;
const MAX_PAGE = 100;

/** A player's rating in one pool, as the API shows it. */
export interface ShownRating extends RatingRow {
  provisional: boolean;
}

export interface RatingPage<T> {
  items: { node: T; cursor: string }[];
  endCursor: string | null;
  hasNextPage: boolean;
}

/** The game's end stores the game's queue row with it: a rated game that ended with a result is rated once, whoever takes the row. */
class RatingQueueRows implements ConsequenceHandler<LiveGame> {
  readonly projection = RATING_QUEUE;
  async rowsOf(before: LiveGame | null, after: LiveGame, events: readonly StoredEvent[]): Promise<QueuedGame[]> {
    const last = events.at(-1);
    if (!after.rated || !after.ended || before?.ended || !last) return [];
    const game = ratedGameOf(after, last);
    return game ? [{ id: game.gameId, game }] : [];
  }
}

class PoolWriter implements StreamWriter<LivePool, Rating, AdvancedPool> {
  constructor(private readonly store: RatingStore) {}
  advance(pool: LivePool, { drafts, rated }: Rating): AdvancedPool {
    const events = chainEvents(pool.poolId, pool, drafts);
    const next = foldStream(ratingPool, pool.poolId, events, null, { from: pool });
    return { next, events, batch: { poolId: pool.poolId, events }, rated };
  }
  append(pool: LivePool, { events, rated }: AdvancedPool): Promise<void> {
    return this.store.append({ id: pool.poolId, kind: pool.kind, family: pool.family }, events, rated);
  }
}

/**
 * The ratings (docs/ratings.md): a workflow from the games' ends to the pools' streams. A rated
 * game's end stores its queue row in the same statement (a consequence); this takes the queue in
 * order and appends each game's update to its pool through the one command path, with the game's
 * command id (`game:<id>`): of two instances, or a retry after a crash, one update is stored. The
 * queue row goes in the rating's transaction. Taken after every rated game's end this process
 * publishes, and at start-up (what a stopped process left).
 */
@Injectable()
export class RatingService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Ratings');
  private readonly held: HeldStreams<LivePool, PoolBatch>;
  private readonly path: StreamCommands<LivePool, PoolBatch, Rating, AdvancedPool>;
  private readonly stops: (() => void)[] = [];
  private readonly untrack: () => void;
  private draining: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly store: RatingStore,
    private readonly referee: RefereeService,
    private readonly events: EventStore,
    private readonly registry: EngineRegistry,
    @Optional() consequences: GameConsequences = new GameConsequences(),
    @Optional() private readonly clock: Clock = new SystemClock(),
  ) {
    const streams = new StoredStreams<LivePool, PoolBatch>(store, {
      name: 'ratings pool',
      what: 'ratings pool',
      isId: isPoolId,
      idOf: (p) => p.poolId,
      isOver: () => false,
      fold: (id, events, from) => foldStream(ratingPool, id, events, null, { checkHashes: true, from: from as LivePool | undefined }),
      batch: (poolId, events) => ({ poolId, events }),
    });
    // Any instance appends to a pool: every command compares the held pool with its stored version.
    this.held = new HeldStreams(streams, { running: 100, over: 10, readsStoredVersion: true });
    this.path = new StreamCommands(referee.gate, this.held, new PoolWriter(store), 'the ratings pool kept changing; the queue takes the game again');
    this.untrack = consequences.register(new RatingQueueRows());
  }

  /** Rates what the queue holds and, from now on, every rated game's end this process publishes. */
  onApplicationBootstrap(): void {
    if (!this.referee.background) return;
    this.stopped = false;
    this.stops.push(this.referee.bus.react((_id, { game, steps }) => (game.rated && steps.some((s) => s.event.type === 'GameEnded') ? this.drain() : undefined)));
    void this.drain();
  }

  /** Takes no more steps (games that end are still queued, with their ends); waits for a drain under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const stop of this.stops.splice(0)) stop();
    await this.draining;
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
    this.untrack();
  }

  /** Rates every queued game, oldest first; one drain at a time here (a call during one makes it go round again). */
  drain(): Promise<void> {
    if (this.draining) {
      this.again = true;
      return this.draining;
    }
    this.draining = (async () => {
      do {
        this.again = false;
        await this.drainOnce().catch((err: Error) => this.logger.warn(`could not rate the games that ended (${err.message}); the next game's end or start-up rates them`));
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.draining = null;
    });
    return this.draining;
  }

  private async drainOnce(): Promise<void> {
    for (let queued = await this.store.queued(DRAIN_BATCH); queued.length > 0 && !this.stopped; queued = await this.store.queued(DRAIN_BATCH)) {
      for (const { game } of queued) {
        if (this.stopped) return;
        await this.rate(game);
      }
    }
  }

  /** Appends `game`'s update to its pool, unless the pool holds it already (its queue row then goes). */
  async rate(game: RatedGame): Promise<void> {
    const poolId = poolIdOf(game.kind, game.family);
    for (let attempt = 1; attempt <= 3; attempt++) {
      if (!(await this.store.versions([poolId])).has(poolId)) {
        if (await this.open(poolId, game)) return;
        continue;
      }
      const stored = await this.path.run(poolId, {
        replay: (pool) => (pool.commands.has(ratingCommandId(game.gameId)) || pool.games.has(game.gameId) ? 'already' : null),
        decide: (pool) => ({ ok: true, value: ratingDrafts(pool, game, this.clock.now().toISOString()) }),
        accepted: () => 'rated',
      });
      if (stored === 'already') await this.store.dequeue(game.gameId);
      else this.logger.log(`game ${game.gameId} rated in ${poolId}`);
      return;
    }
    throw new RefereeError('VERSION_CONFLICT', `the pool ${poolId} kept changing`);
  }

  /** A new pool, opened by its first game; false when another writer opened it first. */
  private open(poolId: string, game: RatedGame): Promise<boolean> {
    return this.held.lock.run(poolId, async () => {
      const { drafts, rated } = ratingDrafts(null, game, this.clock.now().toISOString());
      const events = chainEvents(poolId, emptyHead(), drafts);
      try {
        await this.store.append({ id: poolId, kind: game.kind, family: game.family }, events, rated);
      } catch (err) {
        if (err instanceof AppendConflict) return false;
        throw err;
      }
      this.held.remember(foldStream(ratingPool, poolId, events, null));
      this.logger.log(`game ${game.gameId} rated in ${poolId} (the pool's first)`);
      return true;
    });
  }

  /** The player's ratings, one per pool it played in. */
  async ratingsOf(playerId: string): Promise<ShownRating[]> {
    return (await this.store.ratingsOf(playerId)).map(shown);
  }

  /** The player's current rating in the pool of `kind` and `family`; null: it has played no rated game there. */
  async ratingIn(playerId: string, kind: string, family: RatingFamily): Promise<ShownRating | null> {
    const poolId = poolIdOf(kind, family);
    return (await this.ratingsOf(playerId)).find((r) => r.poolId === poolId) ?? null;
  }

  /** A pool's leaderboard: the highest rating first (ties: by player id). */
  async leaderboard(kind: string, family: RatingFamily, args: { first?: number | null; after?: string | null }): Promise<RatingPage<ShownRating>> {
    const first = pageSize(args.first);
    const after = args.after ? boardCursor(args.after) : undefined;
    const rows = await this.store.board(poolOf(kind, family), first + 1, after);
    return page(rows.slice(0, first).map(shown), rows.length > first, (r) => cursorText([r.rating, r.playerId]));
  }

  /** A player's rating changes in a pool, the newest first. */
  async history(playerId: string, kind: string, family: RatingFamily, args: { first?: number | null; after?: string | null }): Promise<RatingPage<RatingChangeRow>> {
    const first = pageSize(args.first);
    const before = args.after ? seqCursor(args.after) : undefined;
    const rows = await this.store.history(playerId, poolOf(kind, family), first + 1, before);
    return page(rows.slice(0, first), rows.length > first, (r) => cursorText([r.seq]));
  }

  /** What a rated game changed in its players' ratings (none before it is rated). */
  changesOfGame(gameId: string): Promise<RatingChangeRow[]> {
    return this.store.changesOfGame(gameId);
  }

  /**
   * Every pool recomputed from the games' stored events (their bundles), in the pools' order, and
   * compared with the stored updates byte for byte (recomputePool).
   */
  async recomputeAll(): Promise<{ pools: number; games: number; mismatches: RatingMismatch[] }> {
    const mismatches: RatingMismatch[] = [];
    let games = 0;
    const pools = await this.store.pools();
    for (const poolId of pools) {
      const events = await this.store.events(poolId);
      const rated = new Map<string, RatedGame | null>();
      for (const e of events.slice(1)) {
        const gameId = String(e.payload.gameId);
        // A game whose events do not verify gives nothing to rate: its update is reported.
        rated.set(gameId, await this.gameFromLog(gameId).catch(() => null));
        games++;
      }
      try {
        mismatches.push(...recomputePool(poolId, events, (id) => rated.get(id) ?? null));
      } catch (err) {
        mismatches.push({ poolId, seq: err instanceof StreamError ? err.seq : 0, gameId: '', reason: `the pool's stream does not verify: ${(err as Error).message}` });
      }
    }
    return { pools: pools.length, games, mismatches };
  }

  /** What a finished game's stored events (its bundle) say for its rating: folded with every hash checked. */
  private async gameFromLog(gameId: string): Promise<RatedGame | null> {
    const events = await this.events.events(gameId);
    const last = events.at(-1);
    if (!last) return null;
    const game = foldGame(this.registry, gameId, events, null, { checkHashes: true });
    return ratedGameOf(game, last);
  }
}

function shown(r: RatingRow): ShownRating {
  return { ...r, provisional: isProvisional({ parameters: parametersOf(ratingSystemOf(r.kind)) }, r) };
}

function poolOf(kind: string, family: RatingFamily): string {
  if (!RATING_FAMILIES.includes(family)) throw new RefereeError('INVALID_INPUT', `family must be one of ${RATING_FAMILIES.join(', ')}`);
  const id = poolIdOf(kind, family);
  if (!isPoolId(id)) throw new RefereeError('INVALID_INPUT', 'kind must be a game kind');
  return id;
}

function pageSize(first: number | null | undefined): number {
  const n = first ?? DEFAULT_PAGE;
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE) throw new RefereeError('INVALID_INPUT', `first must be 1 to ${MAX_PAGE}`);
  return n;
}

function page<T>(items: T[], hasNextPage: boolean, cursor: (item: T) => string): RatingPage<T> {
  const edges = items.map((node) => ({ node, cursor: cursor(node) }));
  return { items: edges, endCursor: edges.at(-1)?.cursor ?? null, hasNextPage };
}

const cursorText = (parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString('base64url');

function cursorParts(text: string): unknown[] {
  try {
    const parts = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(parts)) return parts;
  } catch {
    // answered below
  }
  throw new RefereeError('INVALID_INPUT', 'after must be a cursor an earlier page answered');
}

function boardCursor(text: string) {
  const [rating, playerId] = cursorParts(text);
  if (typeof rating !== 'number' || typeof playerId !== 'string') throw new RefereeError('INVALID_INPUT', 'after must be a cursor an earlier page answered');
  return { rating, playerId };
}

function seqCursor(text: string): number {
  const [seq] = cursorParts(text);
  if (!Number.isInteger(seq)) throw new RefereeError('INVALID_INPUT', 'after must be a cursor an earlier page answered');
  return seq as number;
}
