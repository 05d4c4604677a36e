import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import type { Outcome, Viewer } from '../../engines/kit/index.js';
import type { Bundle, Verdict } from '../core/audit.js';
import { EngineRegistry } from '../core/engine-registry.js';
import { RefereeError } from '../core/errors.js';
import type { GameCommand } from '../core/game/commands.js';
import { gameDecider } from '../core/game/decider.js';
import { decodeGameEvent } from '../core/game/events.js';
import { viewEvent } from '../core/game/views.js';
import type { StoredEvent } from '../core/stream.js';
import { DeadlineStore } from '../store/deadline-store.js';
import { PlayerFeedStore } from '../store/player-feed-store.js';
import { PlayerGamesStore } from '../store/player-games-store.js';
import { EventStore, type GameFilter, type GameStatus } from '../store/event-store.js';
import { Clock, SystemClock } from './clock.js';
import { CommandGate } from './command-gate.js';
import { GameConsequences, type Implied } from './consequences.js';
import { BACKGROUND_WORK, DEADLINE_SETTINGS, DeadlineWorker, type DeadlineSettings, type GameLoader } from './deadlines.js';
import { TokenDirectory } from './directories.js';
import { isKey, KeyDirectory, type KeyScope, NoKeys, type PlayerCard } from './key-holders.js';
import { Freshness } from './freshness.js';
import { GameCommands, type MoveResult } from './command-handler.js';
import { EventViews } from './event-views.js';
import { type GameAnswer, gameAnswer, type GameSnapshot, snapshotOf } from './game-answer.js';
import { type GameAt, type GamePage, type GamePageArgs, GameQueries } from './game-queries.js';
import { type CreateGameInput, GameSetup, type NewGameAnswer, type PreparedGame } from './game-setup.js';
import { isGameId } from '../core/ids.js';
import { type Appended, type LiveGame, type LiveGames, liveGames } from './live-games.js';
import { RefereeMetrics } from './metrics.port.js';
import { LowTimeListeners } from './low-time.js';
import { InThreadRecordParser, RecordParser } from './record-parser.js';
import { type FeedReader, PlayerFeed } from './player-feed.js';
import { type InboxArgs, type InboxPage, PlayerGames } from './player-games.js';
import { Records } from './records.js';
import { isOrganizerToken, SeatTokens, tokenHash } from './seat-tokens.js';
import { Slicer } from './slices.js';

/** Games read a page at a time when every game of a kind is wanted (a tournament's, the ones still played). */
const GAMES_PAGE = 500;
/** How often an open stream of a player's looks its key up again. */
const KEY_RECHECK_MS = 30_000;

/**
 * The referee as the API layers see it: one object that wires the application's parts (live
 * games, seat tokens, commands, setup, queries, records) over an event store and the engines.
 * Every method hands over to the part that does the work.
 */
@Injectable()
export class RefereeService implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  /** Every command of this process goes through it (the tournaments' too): closed on shutdown. */
  readonly gate = new CommandGate();
  private readonly live: LiveGames;
  private readonly freshness: Freshness;
  private readonly commands: GameCommands;
  private readonly setup: GameSetup;
  private readonly queries: GameQueries;
  private readonly records: Records;
  private readonly tokens: SeatTokens;
  /** Times out the games whose deadline passed (null without a deadline store: nothing times out on its own). */
  readonly deadlines: DeadlineWorker | null;
  /** Unregisters the deadline worker, the inbox and the feed from the games' consequences. */
  private readonly untrack: () => void;
  private readonly playerGames: PlayerGames | null;
  private readonly playerFeed: PlayerFeed | null;

  constructor(
    private readonly store: EventStore,
    readonly registry: EngineRegistry,
    metrics: RefereeMetrics,
    @Optional() parser: RecordParser = new InThreadRecordParser(),
    @Optional() readonly clock: Clock = new SystemClock(),
    @Optional() @Inject(DeadlineStore) deadlineStore: DeadlineStore | null = null,
    @Optional() @Inject(DEADLINE_SETTINGS) deadlineSettings: DeadlineSettings = { pollMs: 1000, sweepMs: 60_000 },
    @Optional() private readonly consequences: GameConsequences = new GameConsequences(),
    @Optional() lowTime: LowTimeListeners = new LowTimeListeners(),
    /** Who a token is: the tournaments register their participants' and organizers' (empty without tournaments). */
    @Optional() private readonly directory: TokenDirectory = new TokenDirectory(),
    /** Who holds a key: a player's key acts as the seats bound to the player (NoKeys without the players module). */
    @Optional() private readonly keys: KeyDirectory = new NoKeys(),
    /** The players' inbox (null without one: no game is listed for a player). */
    @Optional() @Inject(PlayerGamesStore) playerGamesStore: PlayerGamesStore | null = null,
    /** The players' feed (null without one: no notice is stored for a player). */
    @Optional() @Inject(PlayerFeedStore) playerFeedStore: PlayerFeedStore | null = null,
    /** Whether this process takes steps in the background (the deadlines here, the tournaments', challenges' and ratings' catch-ups): off for the commands that only read. */
    @Optional() @Inject(BACKGROUND_WORK) readonly background: boolean = true,
  ) {
    const decider = gameDecider(registry);
    const tokens = (this.tokens = new SeatTokens(store, directory, keys));
    const slicer = new Slicer();
    this.live = liveGames(store, registry, slicer);
    this.queries = new GameQueries(this.live, tokens, store, registry, slicer, new EventViews(store, registry, slicer));
    this.commands = new GameCommands(this.gate, this.live, tokens, store, decider, this.queries, metrics, clock, consequences);
    this.setup = new GameSetup(this.gate, this.live, tokens, store, decider, metrics, slicer, clock, consequences, keys);
    const live = this.live;
    const games: GameLoader = { stored: (id, version) => live.atLeast(id, version).then(() => live.get(id)) };
    this.deadlines = deadlineStore ? new DeadlineWorker(deadlineStore, clock, games, this.commands, lowTime, metrics, deadlineSettings) : null;
    this.playerGames = playerGamesStore ? new PlayerGames(playerGamesStore) : null;
    this.playerFeed = playerFeedStore ? new PlayerFeed(playerFeedStore) : null;
    const untracked = [
      this.deadlines ? consequences.register(this.deadlines.rows) : null,
      this.playerGames ? consequences.register(this.playerGames) : null,
      this.playerFeed ? consequences.register(this.playerFeed) : null,
    ];
    this.untrack = () => {
      for (const untrack of untracked) untrack?.();
    };
    this.records = new Records(registry, store, this.queries, this.setup, parser);
    this.freshness = new Freshness(this.live);
  }

  /** Keeps held games fresh with the appends of every instance on the database (see Freshness). */
  async onModuleInit(): Promise<void> {
    await this.freshness.watch(this.store);
  }

  /** Starts the deadline worker once every module is ready: the low-time listeners are registered, so warnings due at start-up are told. */
  onApplicationBootstrap(): void {
    if (this.background) this.deadlines?.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.deadlines?.stop();
    this.untrack();
    await this.freshness.stop();
  }

  /** Tells an Appended under the game's id for every stored batch of its events; workflows react to every game's. */
  get bus() {
    return this.live.bus;
  }

  /** Calls `told` with each batch of the game's events stored from now on, as `viewer` may see them, and the version it reached; until the returned function is called. */
  followEvents(gameId: string, viewer: Viewer, told: (events: StoredEvent[], version: number) => void): () => void {
    const listener = ({ game, steps }: Appended) =>
      told(
        steps.map((s) => viewEvent(game, s.event, s.before, s.after, viewer)),
        game.version,
      );
    this.live.bus.on(gameId, listener);
    return () => void this.live.bus.off(gameId, listener);
  }

  async createGame(input: CreateGameInput): Promise<NewGame> {
    return created(await this.setup.create(input));
  }

  /** The player whose key `token` is, if the key has `scope` (UNAUTHORIZED, SCOPE_MISSING otherwise). */
  playerOfKey(token: string, scope: KeyScope): Promise<string> {
    return this.tokens.playerOf(token, scope);
  }

  /** The games of the player whose key `token` is (scope read), a page at a time (see PlayerGames.page). */
  async myGames(token: string | null, args: InboxArgs): Promise<InboxPage> {
    const player = await this.readingPlayer(token, "a player's games");
    if (!this.playerGames) throw new RefereeError('NOT_FOUND', 'this referee keeps no inbox');
    return this.playerGames.page(player, args);
  }

  /** The notices of the player whose key `token` is (scope read), after the notice whose id is `after` (null: from the first). */
  async myFeed(token: string | null, after: string | null): Promise<FeedReader> {
    const player = await this.readingPlayer(token, "a player's stream");
    if (!this.playerFeed) throw new RefereeError('NOT_FOUND', 'this referee keeps no feed');
    const reader = this.playerFeed.reader(player, after);
    // A stream stays open for days: its key is looked up again now and then, and a key revoked
    // (on any instance) ends it with UNAUTHORIZED.
    let checkedAt = this.clock.now().getTime();
    return {
      ...reader,
      read: async (from) => {
        if (this.clock.now().getTime() - checkedAt >= KEY_RECHECK_MS) {
          await this.readingPlayer(token, "a player's stream");
          checkedAt = this.clock.now().getTime();
        }
        return reader.read(from);
      },
    };
  }

  /** The player whose key `token` is, with scope read; a seat token or none is refused (UNAUTHORIZED): `what` is the player's own. */
  private async readingPlayer(token: string | null, what: string): Promise<string> {
    if (!token || !isKey(token)) throw new RefereeError('UNAUTHORIZED', `${what} needs the player's key as a Bearer token`);
    return this.tokens.playerOf(token, 'read');
  }

  /** The player with this id, or null. */
  playerCard(playerId: string): Promise<PlayerCard | null> {
    return this.keys.player(playerId);
  }

  /** Takes an open seat; with a player's key (scope play) as `token`, the seat is bound to that player. Any other token is not a join's business. */
  async join(
    gameId: string,
    input: { seat?: number | null; name?: string | null; clientSeed?: string | null },
    token: string | null = null,
  ): Promise<{ game: GameSnapshot; seat: number; token: string }> {
    const player = token && isKey(token) ? await this.tokens.playerOf(token, 'play') : null;
    const joined = await this.commands.join(gameId, input, player);
    return { ...joined, game: snapshotOf(joined.game) };
  }

  /** A seat's action; `kind`, when given, refuses a game of another kind (a typed mutation names its game). */
  act(gameId: string, token: string | null, moveId: unknown, action: unknown, expectedVersion?: number | null, kind?: string): Promise<MoveResult> {
    return this.commands.move(gameId, token, moveId, expectedVersion, { kind: 'action', action }, kind);
  }

  /** Time for `seat`: from the organizer of the game's tournament, or from the seat holding `token` (its own vacation, or a gift to another seat). */
  addTime(gameId: string, token: string | null, seat: number, seconds: number, vacation: boolean): Promise<MoveResult> {
    const ms = seconds * 1000;
    return this.clockBy(gameId, token, { type: 'AddTime', seat, ms, by: 'organizer', vacation }, () => this.commands.addTime(gameId, token, seat, ms, vacation));
  }

  /** The organizer of the game's tournament pauses the clocks; a seat asks, and they pause once every seat asked. */
  pauseClock(gameId: string, token: string | null): Promise<MoveResult> {
    return this.clockBy(gameId, token, { type: 'PauseClock', by: 'organizer' }, () => this.commands.pauseClock(gameId, token));
  }

  /** The organizer of the game's tournament resumes any pause; a seat asks to resume the seats' pause, and the clocks run once every seat asked. */
  resumeClock(gameId: string, token: string | null): Promise<MoveResult> {
    return this.clockBy(gameId, token, { type: 'ResumeClock', by: 'organizer' }, () => this.commands.resumeClock(gameId, token));
  }

  /** A seat declines the other seats' request to pause (the organizer pauses at once, and has nothing to decline). */
  declinePause(gameId: string, token: string | null): Promise<MoveResult> {
    return this.commands.declinePause(gameId, token);
  }

  /** A clock command from the organizer of the game's tournament when the token is its organizer's, else from the seat the token holds. */
  private async clockBy(gameId: string, token: string | null, byOrganizer: GameCommand, bySeat: () => Promise<MoveResult>): Promise<MoveResult> {
    return token && (await this.organizes(gameId, token)) ? this.commands.byOrganizer(gameId, byOrganizer) : bySeat();
  }

  /** Whether the token is the organizer's of the tournament that scheduled the game (the tournaments' directory says). */
  private async organizes(gameId: string, token: string): Promise<boolean> {
    if (!isOrganizerToken(token) || !isGameId(gameId)) return false;
    const game = await this.live.get(gameId).catch(() => null);
    if (!game?.tournamentId) return false;
    const role = await this.directory.roleOf(tokenHash(token));
    return role?.role === 'organizer' && role.tournamentId === game.tournamentId;
  }

  /** The seat concedes the whole game. */
  resign(gameId: string, token: string | null, moveId: unknown, expectedVersion?: number | null): Promise<MoveResult> {
    return this.commands.move(gameId, token, moveId, expectedVersion, { kind: 'resign' });
  }

  /** The seat ends a game nobody moved in yet, with no result (not a tournament's game: its organizer's rules decide it). */
  abort(gameId: string, token: string | null): Promise<MoveResult> {
    return this.commands.abort(gameId, token);
  }

  /** A tournament's game, decided and chained but not stored (the tournament stores it with its pairing). */
  tournamentGame(input: Parameters<GameSetup['tournamentGame']>[0]): PreparedGame {
    return this.setup.tournamentGame(input);
  }

  /** What a tournament's game's creation implies (its first mover told, its first deadline, the inbox): stored with it, then `stored()`. */
  creationImplies(game: PreparedGame): Promise<Implied> {
    return this.consequences.implied(null, game.game, game.events);
  }

  /** Tournament games once stored: held here and told to subscribers. */
  stored(games: readonly PreparedGame[]): void {
    for (const g of games) void this.live.publish(g.game, { gameId: g.game.gameId, game: g.game, steps: g.steps });
  }

  /** Ends a running game with an organizer's outcome; with the organizer's entry a game already over refuses it (GAME_OVER), without it is left as it is. */
  adjudicate(gameId: string, outcome: Outcome, reason: string, entry?: Record<string, unknown>): Promise<LiveGame> {
    return this.commands.adjudicate(gameId, outcome, reason, entry);
  }

  /** The organizer's entry a game that is over was closed with, if it was: read from the end of its log. */
  async adjudicatedEntry(game: GameSnapshot): Promise<Record<string, unknown> | null> {
    // GameEnded is among the last events: SeedRevealed at most follows it.
    for (const stored of await this.store.events(game.gameId, Math.max(0, game.version - 3))) {
      const e = decodeGameEvent(stored);
      if (e.ok && e.value.type === 'GameEnded') return e.value.payload.adjudication?.entry ?? null;
    }
    return null;
  }

  /**
   * The statuses of a tournament's games still played and of `gameIds` (its games without a
   * result): the games' answer to the tournaments, who do not read the games' tables. The games
   * it finished are not read, so that a catch-up costs the same in round 9 as in round 1.
   */
  scheduledGames(tournamentId: string, gameIds: readonly string[]): Promise<Map<string, GameStatus>> {
    return this.store.tournamentGameStatuses(tournamentId, gameIds);
  }

  /** The tournaments with a scheduled game still being played. */
  async tournamentsPlaying(): Promise<string[]> {
    return [...new Set((await this.allGames({ status: 'ACTIVE', inTournament: true })).flatMap((g) => (g.tournamentId ? [g.tournamentId] : [])))];
  }

  private async allGames(filter: GameFilter): Promise<{ id: string; status: GameStatus; tournamentId: string | null }[]> {
    const found: { id: string; status: GameStatus; tournamentId: string | null }[] = [];
    for (let after: { createdAt: Date; id: string } | undefined; ; ) {
      const page = await this.store.list(filter, GAMES_PAGE, after);
      for (const g of page) found.push({ id: g.id, status: g.status, tournamentId: g.tournamentId });
      if (page.length < GAMES_PAGE) return found;
      after = page[page.length - 1];
    }
  }

  async importRecord(kind: string, text: string): Promise<NewGame> {
    return created(await this.records.import(kind, text));
  }

  /** A record replayed into a game that is not stored yet: a tournament stores it with the result it attests. */
  preparedRecord(kind: string, text: string): Promise<PreparedGame> {
    return this.records.prepare(kind, text);
  }

  record(gameId: string): Promise<{ contentType: string; text: string }> {
    return this.records.export(gameId);
  }

  /** The game by id (of `kind`, when given); with `atLeastVersion`, never older than that version (read-your-writes across instances). */
  async game(gameId: string, kind?: string, atLeastVersion?: number | null): Promise<GameSnapshot> {
    return snapshotOf(await this.held(gameId, kind, atLeastVersion));
  }

  /** The game as held, secrets and all, for the application's own parts. */
  private async held(gameId: string, kind?: string, atLeastVersion?: number | null): Promise<LiveGame> {
    if (atLeastVersion === undefined || atLeastVersion === null) return this.queries.game(gameId, kind);
    if (!Number.isSafeInteger(atLeastVersion) || atLeastVersion < 0) throw new RefereeError('INVALID_INPUT', 'atLeastVersion must be a whole number, 0 or more');
    if (isGameId(gameId)) await this.live.atLeast(gameId, atLeastVersion);
    const game = await this.queries.game(gameId, kind);
    if (game.version < atLeastVersion) throw new RefereeError('INVALID_INPUT', `game ${gameId} is at version ${game.version}; no move stored it at ${atLeastVersion}`);
    return game;
  }

  /** The game and seat a token was issued for; null for a made-up token. */
  tokenOwner(token: string): Promise<{ gameId: string; seat: number } | null> {
    return this.tokens.ownerOf(token);
  }

  viewerOf(gameId: string, token: string | null): Promise<Viewer> {
    return this.queries.viewerOf(gameId, token);
  }

  /** The game's answer for `viewer`, its clocks as of now (the injected clock's). */
  answer(game: GameSnapshot, viewer: Viewer): GameAnswer {
    return gameAnswer(game, viewer, this.clock.now().toISOString());
  }

  events(gameId: string, afterSeq: number, viewer: Viewer, limit?: number): Promise<StoredEvent[]> {
    return this.queries.events(gameId, afterSeq, viewer, limit);
  }

  stateAt(gameId: string, seq: number, viewer: Viewer): Promise<GameAt> {
    return this.queries.stateAt(gameId, seq, viewer, this.clock.now().toISOString());
  }

  list(filter: GameFilter, page?: GamePageArgs): Promise<GamePage> {
    return this.queries.list(filter, page);
  }

  bundle(gameId: string): Promise<Bundle> {
    return this.queries.bundle(gameId);
  }

  verify(gameId: string): Promise<Verdict> {
    return this.queries.verify(gameId);
  }

  /** True once drain() began (readiness answers DRAINING). */
  get draining(): boolean {
    return this.gate.isDraining;
  }

  /** Stop taking commands and wait for the ones in flight (graceful shutdown). */
  drain(): Promise<void> {
    return this.gate.drain();
  }

  stats(): Record<string, number> {
    return { arbiter_live_games: this.live.size, arbiter_commands_in_flight: this.gate.commandsInFlight };
  }
}

/** A new game as the API answers it: the game and the tokens of the seats taken. */
export type NewGame = { game: GameSnapshot; tokens: NewGameAnswer['tokens'] };

const created = ({ game, tokens }: NewGameAnswer): NewGame => ({ game: snapshotOf(game), tokens });
