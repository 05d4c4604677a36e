import { Logger } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import type { EngineRegistry } from '../core/engine-registry.js';
import { RefereeError } from '../core/errors.js';
import type { Decision, GameDecider } from '../core/game/commands.js';
import { foldGameInSlices } from '../core/game/fold.js';
import { type GameState, type GameStatus, statusOf } from '../core/game/state.js';
import { headProblem } from '../core/audit.js';
import { isGameId } from '../core/ids.js';
import { advanceHead, chainEvents, emptyHead, type Folded, type StoredEvent, StreamError } from '../core/stream.js';
import type { EventStore, SeatRow } from '../store/event-store.js';
import type { Slicer } from './slices.js';

/** A game as the referee holds it in memory: the folded stream plus its secrets and seats. */
export type LiveGame = Folded<GameState> & {
  status: GameStatus;
  serverSeed: string;
  supplied: number[][];
  seats: SeatRow[];
  createdAt: Date;
  /** The tournament the game was scheduled for (its result feeds that tournament). */
  tournamentId: string | null;
  /** Where in that tournament: its round and board. */
  scheduled: { round: number; board: number } | null;
};

/** One stored event with the states around it, so it can be served to each viewer. */
export interface Step {
  event: StoredEvent;
  before: unknown;
  after: unknown;
}

/** Emitted on the bus under the game's id for every stored batch of its events. */
export interface Appended {
  gameId: string;
  game: LiveGame;
  steps: Step[];
}

/** Games held in memory at most: running ones, and finished ones (read far less, each rebuilt from its log when asked for again). */
const MAX_RUNNING_GAMES = 5000;
const MAX_FINISHED_GAMES = 500;

/**
 * The games this process holds: an LRU of folded games (rebuilt from their streams on a miss),
 * one queue per game so its commands run one at a time here, the gate that drains commands on
 * shutdown, and the bus that tells subscribers what was stored.
 */
export class LiveGames {
  private readonly logger = new Logger('Referee');
  private readonly running = new Map<string, LiveGame>();
  private readonly finished = new Map<string, LiveGame>();
  private readonly locks = new Map<string, Promise<void>>();
  readonly bus = new EventEmitter().setMaxListeners(0);
  /** Told of every tournament game that ends (stored here, or caught up from another instance). */
  private readonly tournamentGameEnded = new Set<(game: LiveGame) => void>();
  private draining = false;

  /** True once drain() began: no new commands are taken. */
  get isDraining(): boolean {
    return this.draining;
  }
  private inFlight = 0;
  private drained: (() => void) | null = null;

  constructor(
    private readonly store: EventStore,
    private readonly registry: EngineRegistry,
    private readonly slicer: Slicer,
    private readonly decider: GameDecider,
  ) {}

  /** The game's current state, from memory or rebuilt (and fully checked) from its stream. */
  async get(gameId: string): Promise<LiveGame> {
    const cached = this.cached(gameId);
    if (cached) {
      this.remember(cached);
      return cached;
    }
    if (!isGameId(gameId)) throw new RefereeError('NOT_FOUND', 'no such game');
    const row = await this.store.game(gameId);
    if (!row) throw new RefereeError('NOT_FOUND', `no game with id ${gameId}`);
    const events = await this.store.events(gameId);
    let folded: Folded<GameState>;
    try {
      folded = await this.slicer.run(foldGameInSlices(this.registry, gameId, events, row.serverSeed, { checkHashes: true }));
      const cut = headProblem(folded, { version: row.version, hash: row.headHash, status: row.status });
      if (cut) throw cut;
    } catch (err) {
      if (!(err instanceof StreamError)) throw err;
      this.logger.error(`game ${gameId} failed its integrity check: ${err.message}`);
      throw new RefereeError('INTEGRITY_ERROR', `this game's stored history failed verification at event ${err.seq}; see verifyGame`);
    }
    const game: LiveGame = {
      ...folded,
      status: statusOf(folded),
      serverSeed: row.serverSeed,
      supplied: row.suppliedChance ?? [],
      seats: row.seats,
      createdAt: row.createdAt,
      tournamentId: row.tournamentId ?? null,
      scheduled: row.round && row.board ? { round: row.round, board: row.board } : null,
    };
    const current = this.cached(gameId);
    if (current && current.version >= game.version) return current;
    this.remember(game);
    return game;
  }

  /**
   * Brings the cached game up to its stored version `version` (or the latest, without one):
   * reads only the events after the cached version, folds them on (checked as on load) and tells
   * subscribers, as if they had been stored here. A game not held and watched by nobody is left
   * alone: it is read fresh when asked for.
   */
  async catchUp(gameId: string, version?: number): Promise<void> {
    // Nothing to do when the held game is over or already there; checked again under the lock.
    const done = (held: LiveGame | undefined) => held !== undefined && (held.ended || (version !== undefined && held.version >= version));
    const known = this.cached(gameId);
    if (done(known) || (!known && this.bus.listenerCount(gameId) === 0)) return;
    await this.withLock(gameId, async () => {
      const current = this.cached(gameId);
      if (done(current)) return;
      if (!current) {
        // Its subscribers know where they are: they read what they miss (gameEventStream).
        const game = await this.get(gameId);
        this.bus.emit(gameId, { gameId, game, steps: [] } satisfies Appended);
        return;
      }
      const events = await this.store.events(gameId, current.version);
      if (events.length === 0) return;
      const steps: Step[] = [];
      let folded: Folded<GameState>;
      try {
        folded = await this.slicer.run(
          foldGameInSlices(this.registry, gameId, events, current.serverSeed, {
            checkHashes: true,
            from: current,
            onEvent: (event, _typed, before, after) => steps.push({ event, before: before.state, after: after.state }),
          }),
        );
      } catch (err) {
        if (!(err instanceof StreamError)) throw err;
        // Served from the stored stream on next use, where the check names the event.
        this.forget(gameId);
        return;
      }
      // A seat taken elsewhere: its row (token hash, client seed) is the store's.
      const seats = events.some((e) => e.type === 'SeatJoined') ? ((await this.store.game(gameId))?.seats ?? current.seats) : current.seats;
      const { serverSeed, supplied, createdAt, tournamentId, scheduled } = current;
      this.publish({ ...folded, status: statusOf(folded), serverSeed, supplied, seats, createdAt, tournamentId, scheduled }, steps);
    });
  }

  /**
   * Read-your-writes: a held game older than `version` (a move acknowledged by another instance
   * whose notification has not arrived yet) is caught up from the store first.
   */
  async atLeast(gameId: string, version: number): Promise<void> {
    const held = this.cached(gameId);
    if (held && held.version < version) await this.catchUp(gameId);
  }

  /**
   * Compares every running game held here, and every game someone subscribes to, with its
   * stored version, and catches up those behind (when appends may have gone untold).
   */
  async sweep(): Promise<void> {
    const ids = [...new Set([...this.running.keys(), ...(this.bus.eventNames() as string[])])];
    if (ids.length === 0) return;
    const stored = await this.store.versions(ids);
    await Promise.all(
      ids.map((id) => {
        const version = stored.get(id);
        const held = this.cached(id);
        return version !== undefined && (!held || held.version < version) ? this.catchUp(id, version) : undefined;
      }),
    );
  }

  has(gameId: string): boolean {
    return this.running.has(gameId) || this.finished.has(gameId);
  }

  /** Drops a cached game: the stored stream is the truth, read on next use. */
  forget(gameId: string): void {
    this.running.delete(gameId);
    this.finished.delete(gameId);
  }

  private cached(gameId: string): LiveGame | undefined {
    return this.running.get(gameId) ?? this.finished.get(gameId);
  }

  remember(game: LiveGame): void {
    this.forget(game.gameId);
    // Least recently used first out: a Map keeps its keys in the order they were set.
    const [held, bound] = game.ended ? [this.finished, MAX_FINISHED_GAMES] : [this.running, MAX_RUNNING_GAMES];
    held.set(game.gameId, game);
    if (held.size > bound) held.delete(held.keys().next().value!);
  }

  /** Chains a decision's events after `previous` and gives the game as it is once they are stored (with its rows). */
  advance(
    previous: LiveGame | null,
    rows: Pick<LiveGame, 'serverSeed' | 'supplied' | 'seats' | 'createdAt'> & Partial<Pick<LiveGame, 'tournamentId' | 'scheduled'>>,
    decision: Decision,
  ): { game: LiveGame; events: StoredEvent[]; steps: Step[] } {
    const head = previous ?? emptyHead();
    const events = chainEvents(
      decision.game.gameId,
      head,
      decision.steps.map((s) => s.draft),
    );
    const { serverSeed, supplied, seats, createdAt } = rows;
    const tournamentId = rows.tournamentId ?? previous?.tournamentId ?? null;
    const scheduled = rows.scheduled ?? previous?.scheduled ?? null;
    const game: LiveGame = { ...decision.game, ...advanceHead(head, events, this.decider.follows), status: statusOf(decision.game), serverSeed, supplied, seats, createdAt, tournamentId, scheduled };
    const steps = events.map((event, i) => ({ event, before: decision.steps[i].before, after: decision.steps[i].after }));
    return { game, events, steps };
  }

  publish(game: LiveGame, steps: Step[]): void {
    this.remember(game);
    if (steps.length > 0) this.bus.emit(game.gameId, { gameId: game.gameId, game, steps } satisfies Appended);
    if (game.tournamentId && steps.some((s) => s.event.type === 'GameEnded')) for (const told of this.tournamentGameEnded) told(game);
  }

  /** Calls `told` with each tournament game that ends, until the returned function is called. */
  onTournamentGameEnded(told: (game: LiveGame) => void): () => void {
    this.tournamentGameEnded.add(told);
    return () => this.tournamentGameEnded.delete(told);
  }

  /** Runs one command unless the process is draining for shutdown. */
  async command<T>(fn: () => Promise<T>): Promise<T> {
    if (this.draining) throw new RefereeError('SHUTTING_DOWN', 'the referee is shutting down; try again shortly');
    this.inFlight++;
    try {
      return await fn();
    } finally {
      if (--this.inFlight === 0 && this.drained) this.drained();
    }
  }

  /** Commands on one game run one at a time in this process; across processes the store's compare-and-set decides. */
  async withLock<T>(gameId: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(gameId) ?? Promise.resolve();
    let release!: () => void;
    const mine = previous.then(() => new Promise<void>((r) => (release = r)));
    this.locks.set(gameId, mine);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.locks.get(gameId) === mine) this.locks.delete(gameId);
    }
  }

  /** Stop taking commands and wait for the ones in flight (graceful shutdown). */
  async drain(): Promise<void> {
    this.draining = true;
    if (this.inFlight === 0) return;
    await new Promise<void>((resolve) => (this.drained = resolve));
  }

  stats(): Record<string, number> {
    return { arbiter_live_games: this.running.size + this.finished.size, arbiter_commands_in_flight: this.inFlight };
  }
}
