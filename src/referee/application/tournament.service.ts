import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { type Bundle } from '../core/audit.js';
import { hashOf } from '../core/canonical.js';
import { EngineRegistry } from '../core/engine-registry.js';
import { RefereeError } from '../core/errors.js';
import { type TournamentBundle, foldTournament } from '../core/tournament/audit.js';
import type { TournamentConfigInput } from '../core/tournament/config.js';
import { decideTournament, forfeitResult, type TournamentActor, type TournamentCommand, tournamentAggregate } from '../core/tournament/decider.js';
import type { GameResultPayload, ParticipantRegisteredPayload, RoundSettings, ScheduledGame } from '../core/tournament/events.js';
import { placingsOf, standingsOf } from '../core/tournament/formats.js';
import { completedRounds } from '../core/tournament/history.js';
import { SeededLots } from '../core/tournament/lots.js';
import { format, parse } from '../core/tournament/rational.js';
import { resultFromOutcome, agreesWith } from '../core/tournament/results.js';
import { boardOfGame, statusOf, type TournamentState } from '../core/tournament/state.js';
import { advanceHead, chainEvents, type Folded, type StoredEvent, StreamError } from '../core/stream.js';
import { AppendConflict, EventStore } from '../store/event-store.js';
import { type TournamentRow, TournamentStore } from '../store/tournament-store.js';
import { Clock, SystemClock } from './clock.js';
import type { PreparedGame } from './game-setup.js';
import type { LiveGame } from './live-games.js';
import { RefereeService } from './referee.service.js';
import { checkName, isCleanText, newOrganizerToken, newParticipantToken, tokenHash, unwrap } from './seat-tokens.js';

/** A tournament as this process holds it: the folded stream and its row (secret seed, organizer). */
export type LiveTournament = Folded<TournamentState> & { row: TournamentRow };

/** What an organizer enters for one scheduled game (R3.1, R3.4, R3.5). */
export interface EnteredResult {
  round: number;
  board: number;
  /** Defaults to the board's game still waiting for its result. */
  gameId?: string | null;
  /** 2-seat formats: who won, a draw, a forfeit or a double forfeit. */
  outcome?: 'WIN_SEAT0' | 'WIN_SEAT1' | 'DRAW' | 'FORFEIT_WIN_SEAT0' | 'FORFEIT_WIN_SEAT1' | 'DOUBLE_FORFEIT' | null;
  /** Per seat: backgammon points won, Cerke final points, Chicken Foot pips (absent seats null). */
  gamePoints?: (string | number | null)[] | null;
  /** Tables: who was present (absent seats are FORFEIT_LOSS). */
  present?: boolean[] | null;
  /** An over-the-board record in the game's own format (.mat, cerke_online text, Chicken Foot JSON). */
  record?: string | null;
  reason?: string | null;
  /** Replaces an earlier result (R3.7); needs a reason. */
  correction?: boolean | null;
}

export type TournamentEventsAppended = { tournamentId: string; events: StoredEvent[] };

const COMMAND_ID = /^[A-Za-z0-9_.:-]{1,128}$/;
const MAX_REASON = 500;
const MAX_RATING = 10_000;
const MAX_HELD = 200;
const ATTEMPTS = 5;

export const isTournamentId = (id: unknown): id is string => typeof id === 'string' && /^t-[A-Za-z0-9_-]{1,64}$/.test(id);

/**
 * Tournaments as the API layers see them: commands decided by the pure tournament aggregate and
 * appended at an expected version with the games a pairing schedules (all or none), results of
 * refereed games fed in exactly once (a result's command id is its game's id, so two instances
 * store it once), organizers' results closing their scheduled games, and reads.
 */
@Injectable()
export class TournamentService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Tournaments');
  private readonly held = new Map<string, LiveTournament>();
  private readonly locks = new Map<string, Promise<void>>();
  /** Emits TournamentEventsAppended under the tournament's id for every stored batch. */
  readonly bus = new EventEmitter().setMaxListeners(0);
  private stopEnded: (() => void) | null = null;
  private unwatch: (() => Promise<void>) | null = null;

  constructor(
    private readonly store: TournamentStore,
    private readonly games: EventStore,
    private readonly referee: RefereeService,
    private readonly registry: EngineRegistry,
    /** Every decision's time, as the referee's (tests move it by hand). */
    @Optional() private readonly clock: Clock = new SystemClock(),
  ) {}

  async onModuleInit(): Promise<void> {
    this.stopEnded = this.referee.bus.react((_id, { game, steps }) => (game.tournamentId && steps.some((s) => s.event.type === 'GameEnded') ? this.gameEnded(game) : undefined));
    // Another instance's appends: subscribers here hear of them (ids tell tournaments from games).
    this.unwatch = await this.games.watch({
      appended: (id) => {
        if (isTournamentId(id) && this.bus.listenerCount(id) > 0) void this.tell(id);
      },
      lost: () => {},
      restored: () => {
        for (const id of this.bus.eventNames() as string[]) void this.tell(id);
      },
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.stopEnded?.();
    await this.unwatch?.();
  }

  // ------------------------------------------------------------------ commands

  async create(input: TournamentConfigInput): Promise<{ tournament: LiveTournament; organizerToken: string }> {
    const id = `t-${randomBytes(9).toString('base64url')}`;
    const seed = randomBytes(32).toString('hex');
    const ctx = this.decideCtx(seed, { role: 'organizer' });
    const decided = unwrap(decideTournament({ type: 'CreateTournament', tournamentId: id, config: input }, null, ctx, { registry: this.registry }));
    const events = chainEvents(id, { version: 0, lastHash: '0'.repeat(64) }, decided.drafts);
    const organizerToken = newOrganizerToken();
    const config = decided.state.config;
    const row = {
      id,
      name: config.name,
      kind: config.kind,
      format: config.format,
      status: statusOf(decided.state),
      version: events.length,
      headHash: events[events.length - 1].hash,
      seedCommitment: decided.state.seedCommitment,
      seed,
      organizerTokenHash: tokenHash(organizerToken),
    };
    await this.store.create(row, events);
    const tournament: LiveTournament = {
      ...decided.state,
      ...advanceHead({ version: 0, lastHash: '0'.repeat(64), commands: new Map(), lastCommand: null }, events, tournamentAggregate.follows),
      // Stands for the row's stamp until the row is read again.
      row: { ...row, createdAt: new Date(ctx.now) },
    };
    this.hold(tournament);
    this.logger.log(`tournament ${id} created (${config.kind}, ${config.format})`);
    return { tournament, organizerToken };
  }

  /** The organizer registers a participant, or a participant registers itself when registration is open. */
  async register(
    id: string,
    token: string | null,
    input: { name?: string | null; rating?: number | null },
    commandId?: string | null,
  ): Promise<{ tournament: LiveTournament; participantId: string; participantToken: string }> {
    const name = checkName(input.name);
    if (!name) throw new RefereeError('INVALID_INPUT', 'a participant needs a display name');
    const rating = input.rating ?? 0;
    if (!Number.isInteger(rating) || rating < 0 || rating > MAX_RATING) throw new RefereeError('INVALID_INPUT', `rating: a whole number from 0 to ${MAX_RATING}`);
    const participantId = `p-${randomBytes(9).toString('base64url')}`;
    const participantToken = newParticipantToken();
    let registered: ParticipantRegisteredPayload | null = null;
    const tournament = await this.command(id, token, commandId, { type: 'RegisterParticipant', participantId, name, rating }, { allowAnonymous: true }, (events) => {
      registered = events.find((e) => e.type === 'ParticipantRegistered')?.payload as unknown as ParticipantRegisteredPayload;
      return { participant: { id: participantId, registrationNo: registered.registrationNo, name, tokenHash: tokenHash(participantToken) } };
    });
    if (!registered) throw new RefereeError('COMMAND_ID_REUSED', 'this command id already registered a participant; its token was given then');
    return { tournament, participantId, participantToken };
  }

  async withdraw(id: string, token: string | null, participantId: string, reason: string | null | undefined, commandId?: string | null): Promise<LiveTournament> {
    // A game that ended a moment ago keeps its own result: the withdrawal forfeits only games still open.
    await this.settle(id);
    return this.command(id, token, commandId, { type: 'WithdrawParticipant', participantId, reason: checkReason(reason) });
  }

  setRoundSettings(id: string, token: string | null, input: Partial<Omit<RoundSettings, 'round'>> & { round?: number | null }, commandId?: string | null): Promise<LiveTournament> {
    const list = (v: unknown, what: string): string[] => {
      if (v === undefined || v === null) return [];
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new RefereeError('INVALID_INPUT', `${what}: a list of participant ids`);
      return v as string[];
    };
    const pairs = (v: unknown, what: string): [string, string][] => {
      if (v === undefined || v === null) return [];
      if (!Array.isArray(v) || v.some((p) => !Array.isArray(p) || p.length !== 2 || p.some((x) => typeof x !== 'string') || p[0] === p[1]))
        throw new RefereeError('INVALID_INPUT', `${what}: pairs of two different participant ids`);
      return v as [string, string][];
    };
    return this.get(id).then((t) => {
      const settings: RoundSettings = {
        round: input.round ?? t.rounds.length + 1,
        manualPairings: (input.manualPairings ?? []).map((p) => {
          if (!p || typeof p.a !== 'string' || typeof p.b !== 'string' || p.a === p.b) throw new RefereeError('INVALID_INPUT', 'a manual pairing names two different participants (a, b)');
          return { a: p.a, b: p.b, seats: p.seats ? (pairs([p.seats], 'seats')[0] ?? null) : null };
        }),
        manualBye: input.manualBye ?? null,
        manualTables: (input.manualTables ?? []).map((table) => list(table, 'a manual table')),
        absent: list(input.absent, 'absent'),
        requestedByes: list(input.requestedByes, 'requestedByes'),
        forbiddenPairs: pairs(input.forbiddenPairs, 'forbiddenPairs'),
        seeds: input.seeds ? list(input.seeds, 'seeds') : null,
      };
      return this.command(id, token, commandId, { type: 'SetRoundSettings', settings });
    });
  }

  async pairRound(id: string, token: string | null, round: number | null | undefined, commandId?: string | null): Promise<LiveTournament> {
    // The last games may have ended a moment ago, their results still on the way: take them first.
    await this.settle(id);
    return this.command(id, token, commandId, { type: 'PairRound', round: round ?? null });
  }

  async finish(id: string, token: string | null, commandId?: string | null): Promise<LiveTournament> {
    await this.settle(id);
    return this.command(id, token, commandId, { type: 'FinishTournament' });
  }

  /** An organizer's result for a scheduled game, with an optional record that must agree with it; the game is closed with it. */
  async recordResult(id: string, token: string | null, input: EnteredResult, commandId?: string | null): Promise<LiveTournament> {
    // A game that ended on the service has its own result, which an entry corrects only as a correction.
    const t = await this.settle(id);
    const actor = await this.actorOf(t, token);
    if (actor.role !== 'organizer') throw new RefereeError('FORBIDDEN', 'only the organizer records results');
    const result = await this.entered(t, input);
    const tournament = await this.command(id, token, commandId ?? `result:${result.gameId}:${hashOf(result).slice(0, 16)}`, { type: 'RecordResult', result, correction: input.correction === true });
    await this.closeGames(tournament);
    return tournament;
  }

  /** A refereed game of a tournament ended: its outcome becomes the board's result, once. */
  private async gameEnded(game: LiveGame): Promise<void> {
    try {
      if (game.tournamentId) await this.settle(game.tournamentId);
    } catch (err) {
      // The next command or read of the tournament settles it again.
      this.logger.warn(`tournament ${game.tournamentId}: the result of game ${game.gameId} was not recorded yet (${(err as Error).message})`);
    }
  }

  /**
   * Records the results of the tournament's finished games that have none yet, and closes the
   * scheduled games whose result the organizer entered. Safe to run anywhere, any time: each
   * result is one command whose id is the game's, so it is stored once.
   */
  async settle(id: string): Promise<LiveTournament> {
    let t = await this.get(id);
    if (t.finished) return t;
    const open = new Set(openGames(t).map((g) => g.gameId));
    if (open.size > 0) {
      const finished = [...(await this.referee.scheduledGames(id))].filter(([gameId, status]) => status === 'FINISHED' && open.has(gameId));
      for (const [gameId] of finished) {
        const game = await this.referee.game(gameId);
        const at = boardOfGame(t, gameId);
        if (!at || !game.outcome || at.board.results[gameId]) continue;
        const scheduled = at.board.games.find((g) => g.gameId === gameId)!;
        const result = resultFromOutcome(t.config, { round: at.round.round, board: at.board.board, game: scheduled }, game.outcome, { seq: game.version, hash: game.lastHash });
        try {
          t = await this.command(id, null, `game:${gameId}`, { type: 'RecordResult', result, correction: false }, { referee: true });
          this.logger.log(`tournament ${id}: round ${result.round} board ${result.board} result recorded from game ${gameId}`);
        } catch (err) {
          if (!(err instanceof RefereeError && ['RESULT_ALREADY_RECORDED', 'TOURNAMENT_FINISHED'].includes(err.code))) throw err;
          t = await this.get(id);
        }
      }
    }
    await this.closeGames(t);
    return t;
  }

  /** Scheduled games whose board has an organizer's result (or a forfeit) end with it. */
  private async closeGames(t: TournamentState): Promise<void> {
    for (const round of t.rounds) {
      for (const board of round.boards) {
        for (const g of board.games) {
          const r = board.results[g.gameId];
          if (r?.source !== 'organizer') continue;
          const game = await this.referee.game(g.gameId);
          if (game.ended) continue;
          const points = r.seats.map((s) => (s.gamePoints === null ? 0 : Number(s.gamePoints)));
          const winners = r.ranking.length > 0 ? r.ranking[0] : r.seats.flatMap((s, i) => (s.kind === 'FORFEIT_WIN' ? [i] : []));
          const summary = r.reason ?? (r.seats.some((s) => s.kind !== 'PLAYED') ? 'forfeit' : 'result entered by the organizer');
          await this.referee.adjudicate(
            g.gameId,
            { winners, points, summary: `${summary} (tournament ${t.tournamentId})` },
            `tournament ${t.tournamentId} round ${r.round} board ${r.board}: ${summary}`,
          );
        }
      }
    }
  }

  /** The result payload an organizer's entry means, its record imported and checked against it. */
  private async entered(t: TournamentState, input: EnteredResult): Promise<GameResultPayload> {
    const round = t.rounds[input.round - 1];
    const board = round?.boards.find((b) => b.board === input.board);
    if (!round || !board) throw new RefereeError('NOT_IN_TOURNAMENT', `round ${input.round} has no board ${input.board}`);
    const game = input.gameId ? board.games.find((g) => g.gameId === input.gameId) : (board.games.find((g) => !board.results[g.gameId]) ?? board.games[board.games.length - 1]);
    if (!game)
      throw new RefereeError(
        'NOT_IN_TOURNAMENT',
        input.gameId ? `game ${input.gameId} is not on board ${input.board} of round ${input.round}` : `board ${input.board} has no game (a bye or a walkover)`,
      );
    const reason = checkReason(input.reason);
    const result: GameResultPayload = { round: input.round, board: input.board, gameId: game.gameId, source: 'organizer', seats: [], ranking: [], head: null, record: null, reason };
    const twoSeat = t.config.format !== 'tables';
    if (input.record !== undefined && input.record !== null) {
      const imported = await this.referee.importRecord(t.config.kind, input.record);
      const recorded = imported.game;
      if (!recorded.outcome) throw new RefereeError('RECORD_DISAGREES', 'the record does not reach the end of the game');
      result.record = { gameId: recorded.gameId, seq: recorded.version, hash: recorded.lastHash };
      const fromRecord = resultFromOutcome(t.config, { round: input.round, board: input.board, game }, recorded.outcome, { seq: 0, hash: '' });
      if (input.outcome === undefined || input.outcome === null) return { ...result, seats: fromRecord.seats, ranking: fromRecord.ranking };
      const entered = this.enteredSeats(t, game, input, twoSeat);
      if (!agreesWith(t.config, entered, recorded.outcome)) throw new RefereeError('RECORD_DISAGREES', `the record says: ${recorded.outcome.summary}; that is not the result entered`);
      return { ...result, ...entered };
    }
    return { ...result, ...this.enteredSeats(t, game, input, twoSeat) };
  }

  private enteredSeats(t: TournamentState, game: ScheduledGame, input: EnteredResult, twoSeat: boolean): Pick<GameResultPayload, 'seats' | 'ranking'> {
    const points = (i: number): string => {
      const v = input.gamePoints?.[i];
      const r = v === undefined || v === null ? null : parse(v);
      if (!r || r.n < 0) throw new RefereeError('INVALID_INPUT', `gamePoints[${i}]: the game points of seat ${i} (R3.4), a number 0 or more`);
      return format(r);
    };
    const seat = (participantId: string, kind: GameResultPayload['seats'][number]['kind'], gamePoints: string | null) => ({ participantId, kind, gamePoints });
    if (twoSeat) {
      const [a, b] = game.seats;
      switch (input.outcome) {
        case 'WIN_SEAT0':
        case 'WIN_SEAT1':
        case 'DRAW': {
          const seats = [seat(a, 'PLAYED', points(0)), seat(b, 'PLAYED', points(1))];
          const ranking = input.outcome === 'DRAW' ? [[0, 1]] : input.outcome === 'WIN_SEAT0' ? [[0], [1]] : [[1], [0]];
          return { seats, ranking };
        }
        case 'FORFEIT_WIN_SEAT0':
        case 'FORFEIT_WIN_SEAT1': {
          const { seats, ranking } = forfeitResult(t, input.round, input.board, game, input.outcome === 'FORFEIT_WIN_SEAT0' ? b : a, '');
          return { seats, ranking };
        }
        case 'DOUBLE_FORFEIT':
          return { seats: [seat(a, 'DOUBLE_FORFEIT', null), seat(b, 'DOUBLE_FORFEIT', null)], ranking: [] };
        default:
          throw new RefereeError('INVALID_INPUT', 'outcome: WIN_SEAT0, WIN_SEAT1, DRAW, FORFEIT_WIN_SEAT0, FORFEIT_WIN_SEAT1 or DOUBLE_FORFEIT (or a record)');
      }
    }
    const present = input.present ?? game.seats.map(() => true);
    if (!Array.isArray(present) || present.length !== game.seats.length) throw new RefereeError('INVALID_INPUT', `present: one flag per seat (${game.seats.length})`);
    const playing = present.filter(Boolean).length;
    if (playing < t.config.minSeats) {
      // R3.5: too few to play: the present share the top places as forfeit wins.
      return { seats: game.seats.map((id, i) => seat(id, present[i] ? 'FORFEIT_WIN' : 'FORFEIT_LOSS', null)), ranking: [] };
    }
    const seats = game.seats.map((id, i) => (present[i] ? seat(id, 'PLAYED', points(i)) : seat(id, 'FORFEIT_LOSS', null)));
    const pips = seats.map((s) => (s.gamePoints === null ? null : parse(s.gamePoints)!.n));
    const order = [...new Set(pips.filter((p): p is number => p !== null))].sort((x, y) => (t.config.gamePointsOrder === 'lower' ? x - y : y - x));
    return { seats, ranking: order.map((p) => pips.flatMap((q, i) => (q === p ? [i] : []))) };
  }

  // ------------------------------------------------------------------ reads

  /** The tournament, caught up with the store and its finished games' results. */
  async tournament(id: string): Promise<LiveTournament> {
    return this.settle(id);
  }

  async list(first: number, after?: string | null): Promise<TournamentRow[]> {
    let cursor: { createdAt: Date; id: string } | undefined;
    if (after) {
      const row = await this.store.tournament(after);
      if (!row) throw new RefereeError('INVALID_INPUT', 'after: no tournament with that id');
      cursor = { createdAt: row.createdAt, id: row.id };
    }
    return this.store.list(Math.min(Math.max(first, 1), 100), cursor);
  }

  /** Standings after the completed rounds (TB8.11); lots from the tournament's own seed. */
  standings(t: LiveTournament, afterRound?: number | null) {
    const rounds = afterRound ?? completedRounds(t);
    if (!Number.isInteger(rounds) || rounds < 0 || rounds > completedRounds(t)) throw new RefereeError('INVALID_INPUT', `standings exist after rounds 0 to ${completedRounds(t)}`);
    if (t.config.format === 'knockout') return { knockout: placingsOf(t), rows: [] };
    return { knockout: null, rows: standingsOf(t, new SeededLots(t.row.seed, t.tournamentId), rounds).rows };
  }

  async events(id: string, afterSeq = 0): Promise<StoredEvent[]> {
    await this.get(id);
    return this.store.events(id, afterSeq);
  }

  /** Everything to verify the tournament offline: its stream and every game's own bundle. */
  async bundle(id: string): Promise<TournamentBundle> {
    const t = await this.settle(id);
    const games: Bundle[] = [];
    const ids = new Set<string>();
    for (const round of t.rounds)
      for (const board of round.boards) {
        for (const g of board.games) ids.add(g.gameId);
        for (const r of Object.values(board.results)) if (r.record) ids.add(r.record.gameId);
      }
    for (const gameId of ids) games.push(await this.referee.bundle(gameId));
    return {
      format: 'arbiter-tournament-bundle/1',
      tournament: { id, name: t.config.name, kind: t.config.kind, format: t.config.format, status: statusOf(t), seedCommitment: t.seedCommitment, seed: t.revealedSeed },
      hashAlgorithm: 'sha256(prevHash || RFC8785(event))',
      head: { seq: t.version, hash: t.lastHash },
      events: await this.store.events(id),
      games,
    };
  }

  /** The role a token gives in this tournament. */
  async actorOf(t: LiveTournament, token: string | null): Promise<TournamentActor> {
    if (!token) throw new RefereeError('UNAUTHORIZED', "this needs the organizer's or a participant's token as a Bearer token");
    if (tokenHash(token) === t.row.organizerTokenHash) return { role: 'organizer' };
    const p = await this.store.participant(tokenHash(token));
    if (p && p.tournamentId === t.tournamentId) return { role: 'participant', participantId: p.participantId };
    if (p) throw new RefereeError('NOT_IN_TOURNAMENT', 'this participant token belongs to another tournament');
    throw new RefereeError('UNAUTHORIZED', "this token is neither this tournament's organizer's nor one of its participants'");
  }

  // ------------------------------------------------------------------ the command path

  private decideCtx(seed: string, actor: TournamentActor) {
    return { now: this.clock.now().toISOString(), seed, newGameId: () => randomBytes(9).toString('base64url'), actor };
  }

  /**
   * lock → load → decide → store the events (and their games) at the expected version → publish.
   * A command id already used answers the tournament as it is (a retry); a lost race is decided
   * again on fresh state.
   */
  private async command(
    id: string,
    token: string | null,
    commandId: string | null | undefined,
    command: Exclude<TournamentCommand, { type: 'CreateTournament' }>,
    options: { allowAnonymous?: boolean; referee?: boolean } = {},
    extras?: (events: StoredEvent[]) => { participant?: { id: string; registrationNo: number; name: string; tokenHash: string } },
  ): Promise<LiveTournament> {
    if (commandId !== undefined && commandId !== null && (typeof commandId !== 'string' || !COMMAND_ID.test(commandId))) {
      throw new RefereeError('INVALID_INPUT', 'commandId must be 1-128 characters: letters, digits, _ . : -');
    }
    return this.withLock(id, async () => {
      for (let attempt = 1; ; attempt++) {
        const t = await this.get(id);
        const actor: TournamentActor = options.referee ? { role: 'organizer' } : !token && options.allowAnonymous ? { role: 'participant', participantId: '' } : await this.actorOf(t, token);
        const bodyHash = hashOf(command);
        if (commandId) {
          const previous = t.commands.get(commandId);
          if (previous && previous.bodyHash !== bodyHash && !options.referee) throw new RefereeError('COMMAND_ID_REUSED', `command id ${commandId} was already used for another command`);
          if (previous) return t;
        }
        const decided = unwrap(decideTournament(command, t, this.decideCtx(t.row.seed, actor), { registry: this.registry }));
        if (decided.drafts.length === 0) return t;
        if (commandId) Object.assign(decided.drafts[0], { moveId: commandId, bodyHash });
        const events = chainEvents(id, t, decided.drafts);
        const games = this.scheduledGames(decided.state, events);
        const next: LiveTournament = { ...decided.state, ...advanceHead(t, events, tournamentAggregate.follows), row: t.row };
        try {
          await this.store.append(
            id,
            events,
            { version: next.version, hash: next.lastHash, status: statusOf(next) },
            { ...extras?.(events), games: games.map((g) => ({ row: g.row, seats: g.seats, events: g.events })) },
          );
        } catch (err) {
          this.held.delete(id);
          if (err instanceof AppendConflict && attempt < ATTEMPTS) continue;
          if (err instanceof AppendConflict) throw new RefereeError('VERSION_CONFLICT', 'the tournament kept changing; try again');
          throw err;
        }
        this.referee.stored(games);
        // Their deadlines from the start, as a game created alone gets its own (written once the games are stored).
        for (const g of games) this.referee.deadlines?.track(g.game);
        this.hold(next);
        this.bus.emit(id, { tournamentId: id, events } satisfies TournamentEventsAppended);
        return next;
      }
    });
  }

  /** The games the new events schedule (a pairing, a knockout replay), decided and ready to store. */
  private scheduledGames(t: TournamentState, events: StoredEvent[]): PreparedGame[] {
    const name = (pid: string) => t.participants.find((p) => p.id === pid)?.name ?? pid;
    const prepared: PreparedGame[] = [];
    const make = (round: number, board: number, g: ScheduledGame) =>
      prepared.push(
        this.referee.tournamentGame({
          gameId: g.gameId,
          kind: t.config.kind,
          // A smaller table plays the same rules with fewer players (TA7.3).
          ruleset: t.config.format === 'tables' ? t.config.tableRulesets[String(g.seats.length)] : t.config.ruleset,
          timeControl: t.config.timeControl ?? null,
          seats: g.seats.map((participantId) => ({ participantId, name: name(participantId) })),
          tournament: { id: t.tournamentId, round, board },
        }),
      );
    for (const e of events) {
      if (e.type === 'RoundPaired') {
        const p = e.payload as { round: number; boards: { board: number; games: ScheduledGame[] }[] };
        for (const b of p.boards) for (const g of b.games) make(p.round, b.board, g);
      } else if (e.type === 'GamesScheduled') {
        const p = e.payload as { round: number; board: number; games: ScheduledGame[] };
        for (const g of p.games) make(p.round, p.board, g);
      }
    }
    return prepared;
  }

  /** The held tournament, caught up with the store (another instance may have appended). */
  private async get(id: string): Promise<LiveTournament> {
    if (!isTournamentId(id)) throw new RefereeError('NOT_FOUND', 'no such tournament');
    const held = this.held.get(id);
    const stored = await this.store.version(id);
    if (stored === null) throw new RefereeError('NOT_FOUND', `no tournament with id ${id}`);
    if (held && held.version === stored) return held;
    const row = await this.store.tournament(id);
    if (!row) throw new RefereeError('NOT_FOUND', `no tournament with id ${id}`);
    const events = await this.store.events(id, held?.version ?? 0);
    let folded: Folded<TournamentState>;
    try {
      // Checked as on every load; pairings were recomputed when decided, so not again here.
      folded = foldTournament(this.registry, id, events, row.seed, { recompute: false, ...(held ? { from: stateOf(held) } : {}) });
    } catch (err) {
      if (!(err instanceof StreamError)) throw err;
      this.logger.error(`tournament ${id} failed its integrity check: ${err.message}`);
      throw new RefereeError('INTEGRITY_ERROR', `this tournament's stored history failed verification at event ${err.seq}`);
    }
    const t: LiveTournament = { ...folded, row };
    this.hold(t);
    return t;
  }

  private hold(t: LiveTournament): void {
    this.held.delete(t.tournamentId);
    this.held.set(t.tournamentId, t);
    if (this.held.size > MAX_HELD) this.held.delete(this.held.keys().next().value!);
  }

  /** Tells this instance's subscribers of events another instance stored. */
  private async tell(id: string): Promise<void> {
    const before = this.held.get(id)?.version ?? 0;
    const t = await this.get(id).catch(() => null);
    if (!t || t.version <= before) return;
    this.bus.emit(id, { tournamentId: id, events: await this.store.events(id, before) } satisfies TournamentEventsAppended);
  }

  private async withLock<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(id) ?? Promise.resolve();
    let release!: () => void;
    const mine = previous.then(() => new Promise<void>((r) => (release = r)));
    this.locks.set(id, mine);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.locks.get(id) === mine) this.locks.delete(id);
    }
  }
}

/** The folded tournament without its row. */
const stateOf = ({ row: _row, ...state }: LiveTournament): Folded<TournamentState> => state;

/** Games still waiting for their result. */
function openGames(t: TournamentState): ScheduledGame[] {
  return t.rounds.flatMap((r) => r.boards.flatMap((b) => b.games.filter((g) => !b.results[g.gameId])));
}

function checkReason(reason: string | null | undefined): string | null {
  if (reason === undefined || reason === null || reason === '') return null;
  if (typeof reason !== 'string' || reason.length > MAX_REASON || !isCleanText(reason))
    throw new RefereeError('INVALID_INPUT', `a reason is a text of at most ${MAX_REASON} characters, without control characters`);
  return reason;
}
