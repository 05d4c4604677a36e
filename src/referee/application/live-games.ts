import type { EngineRegistry } from '../core/engine-registry.js';
import { RefereeError } from '../core/errors.js';
import type { Decision } from '../core/game/commands.js';
import { foldGameInSlices } from '../core/game/fold.js';
import { type GameState, type GameStatus, statusOf } from '../core/game/state.js';
import { headProblem } from '../core/audit.js';
import { isGameId } from '../core/ids.js';
import { advanceHead, chainInSlices, emptyHead, finish, type Folded, type StoredEvent } from '../core/stream.js';
import type { EventStore, SeatRow } from '../store/event-store.js';
import { HeldStreams, type StreamSource } from './held-streams.js';
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

/** Published on the games' bus under the game's id for every stored batch of its events. */
export interface Appended {
  gameId: string;
  game: LiveGame;
  steps: Step[];
}

/** The games this process holds (see HeldStreams). */
export type LiveGames = HeldStreams<LiveGame, Appended>;

/** Games held in memory at most: running ones, and finished ones (read far less, each rebuilt from its log when asked for again). */
const MAX_RUNNING_GAMES = 5000;
const MAX_FINISHED_GAMES = 500;

/** The games held by this process, read from `store`: served as held, kept fresh by the store's append notifications. */
export function liveGames(store: EventStore, registry: EngineRegistry, slicer: Slicer): LiveGames {
  return new HeldStreams(new GameStreams(store, registry, slicer), { running: MAX_RUNNING_GAMES, over: MAX_FINISHED_GAMES, readsStoredVersion: false });
}

/** How a game's stream is read and folded: every hash checked, long streams a slice at a time. */
class GameStreams implements StreamSource<LiveGame, Appended> {
  readonly name = 'game';
  readonly verifier = 'verifyGame';

  constructor(
    private readonly store: EventStore,
    private readonly registry: EngineRegistry,
    private readonly slicer: Slicer,
  ) {}

  readonly isId = isGameId;
  readonly idOf = (game: LiveGame) => game.gameId;
  readonly isOver = (game: LiveGame) => game.ended;
  readonly moved = (game: LiveGame): Appended => ({ gameId: game.gameId, game, steps: [] });

  versions(ids: readonly string[]): Promise<Map<string, number>> {
    return this.store.versions(ids);
  }

  async load(gameId: string): Promise<LiveGame> {
    const row = await this.store.game(gameId);
    if (!row) throw new RefereeError('NOT_FOUND', `no game with id ${gameId}`);
    const events = await this.store.events(gameId);
    const folded = await this.slicer.run(foldGameInSlices(this.registry, gameId, events, row.serverSeed, { checkHashes: true }));
    const cut = headProblem(folded, { version: row.version, hash: row.headHash, status: row.status });
    if (cut) throw cut;
    return {
      ...folded,
      status: statusOf(folded),
      serverSeed: row.serverSeed,
      supplied: row.suppliedChance ?? [],
      seats: row.seats,
      createdAt: row.createdAt,
      tournamentId: row.tournamentId ?? null,
      scheduled: row.round && row.board ? { round: row.round, board: row.board } : null,
    };
  }

  async follow(held: LiveGame): Promise<{ state: LiveGame; batch: Appended } | null> {
    const events = await this.store.events(held.gameId, held.version);
    if (events.length === 0) return null;
    const steps: Step[] = [];
    const folded = await this.slicer.run(
      foldGameInSlices(this.registry, held.gameId, events, held.serverSeed, {
        checkHashes: true,
        from: held,
        onEvent: (event, _typed, before, after) => steps.push({ event, before: before.state, after: after.state }),
      }),
    );
    // A seat taken elsewhere: its row (token hash, client seed) is the store's.
    const seats = events.some((e) => e.type === 'SeatJoined') ? ((await this.store.game(held.gameId))?.seats ?? held.seats) : held.seats;
    const { serverSeed, supplied, createdAt, tournamentId, scheduled } = held;
    const game: LiveGame = { ...folded, status: statusOf(folded), serverSeed, supplied, seats, createdAt, tournamentId, scheduled };
    return { state: game, batch: { gameId: game.gameId, game, steps } };
  }
}

/** Chains a decision's events after `previous` and gives the game as it is once they are stored (with its rows). */
export function advanceGame(previous: LiveGame | null, rows: GameRows, decision: Decision, follows: (type: string) => boolean): { game: LiveGame; events: StoredEvent[]; steps: Step[] } {
  return finish(advanceGameInSlices(previous, rows, decision, follows));
}

type GameRows = Pick<LiveGame, 'serverSeed' | 'supplied' | 'seats' | 'createdAt'> & Partial<Pick<LiveGame, 'tournamentId' | 'scheduled'>>;

/** The same, chaining a slice of events at a time (an imported record's many): run by a Slicer. */
export function* advanceGameInSlices(
  previous: LiveGame | null,
  rows: GameRows,
  decision: Decision,
  follows: (type: string) => boolean,
): Generator<void, { game: LiveGame; events: StoredEvent[]; steps: Step[] }> {
  const head = previous ?? emptyHead();
  const events = yield* chainInSlices(
    decision.game.gameId,
    head,
    decision.steps.map((s) => s.draft),
  );
  const { serverSeed, supplied, seats, createdAt } = rows;
  const tournamentId = rows.tournamentId ?? previous?.tournamentId ?? null;
  const scheduled = rows.scheduled ?? previous?.scheduled ?? null;
  const game: LiveGame = { ...decision.game, ...advanceHead(head, events, follows), status: statusOf(decision.game), serverSeed, supplied, seats, createdAt, tournamentId, scheduled };
  const steps = events.map((event, i) => ({ event, before: decision.steps[i].before, after: decision.steps[i].after }));
  return { game, events, steps };
}
