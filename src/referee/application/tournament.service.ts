import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { ok, type Result } from '../../engines/kit/index.js';
import type { RowRefusal } from '../core/tournament/bulk.js';
import type { Bundle } from '../core/audit.js';
import { hashOf } from '../core/canonical.js';
import { EngineRegistry } from '../core/engine-registry.js';
import { isTournamentId } from '../core/ids.js';
import { RefereeError } from '../core/errors.js';
import { bundledGameIds, type TournamentBundle, tournamentBundle } from '../core/tournament/audit.js';
import type { TournamentConfigInput } from '../core/tournament/config.js';
import { decideTournament, type TournamentActor, type TournamentCommand } from '../core/tournament/decider.js';
import type { GameResultPayload } from '../core/tournament/events.js';
import { checkReason, type EnteredResult, resultsRecorded, type RoundSettingsInput, roundSettingsOf } from '../core/tournament/entry.js';
import { standingsAfter } from '../core/tournament/formats.js';
import { SeededLots } from '../core/tournament/lots.js';
import { resultFromOutcome } from '../core/tournament/results.js';
import { boardOfGame } from '../core/tournament/state.js';
import type { StoredEvent } from '../core/stream.js';
import { EventStore } from '../store/event-store.js';
import { type TournamentRow, TournamentStore } from '../store/tournament-store.js';
import { type BulkRegistration, type BulkRow, BulkRegistrations } from './bulk-registrations.js';
import { Clock, SystemClock } from './clock.js';
import { Freshness } from './freshness.js';
import { OrganizerEntries } from './organizer-entries.js';
import type { GameSnapshot } from './game-answer.js';
import { RefereeService } from './referee.service.js';
import { isKey } from './key-holders.js';
import { checkName, newOrganizerToken, newParticipantToken, tokenHash, unwrap } from './seat-tokens.js';
import { type CreationAllowance, StreamCommands } from './stream-commands.js';
import {
  type AdvancedTournament,
  founded,
  type LiveTournament,
  type LiveTournaments,
  liveTournaments,
  type TournamentEventsAppended,
  replayed,
  TournamentConsequences,
  type TournamentStep,
  TournamentWriter,
} from './tournament-streams.js';
import { type GameResults, TournamentWorkflows } from './tournament-workflows.js';
import { TournamentSchedules } from './tournament-schedules.js';
import { seedingRating } from './tournament-seeding.js';
import { RatingService } from './ratings.js';

export type { BulkRegistration, BulkRow, EnteredResult, LiveTournament, RowRefusal, TournamentEventsAppended };

/** The organizer: the creator of a tournament, and the actor of the referee's own commands in it (a refereed game's result). */
const ORGANIZER: TournamentActor = { role: 'organizer' };
/** The referee taking a scheduled tournament's own steps (P2.9-P2.11). */
const REFEREE: TournamentActor = { role: 'referee' };

type Path = StreamCommands<LiveTournament, TournamentEventsAppended, TournamentStep, AdvancedTournament>;

/**
 * Tournaments as the API layers see them: commands decided by the pure tournament aggregate and
 * stored through the one command path (the games' gate, a queue per tournament, an expected
 * version; the games a pairing schedules stored with it, all or none), the workflows that carry
 * results between games and tournaments, and reads, which only read.
 */
@Injectable()
export class TournamentService implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy, GameResults {
  private readonly logger = new Logger('Tournaments');
  private readonly held: LiveTournaments;
  private readonly path: Path;
  private readonly workflows: TournamentWorkflows;
  private readonly entries: OrganizerEntries;
  private readonly bulk: BulkRegistrations;
  private readonly freshness: Freshness;
  /** The timed steps of tournaments that run themselves (tests tick it with their clock). */
  readonly schedules: TournamentSchedules;

  constructor(
    private readonly store: TournamentStore,
    private readonly games: EventStore,
    private readonly referee: RefereeService,
    private readonly registry: EngineRegistry,
    /** Every decision's time, as the referee's (tests move it by hand). */
    @Optional() private readonly clock: Clock = new SystemClock(),
    /** Players' current ratings, for seeding those registered without one (absent: every such participant unrated). */
    @Optional() private readonly ratings?: RatingService,
    /** What the tournaments' appends imply (the transparency log's entries), stored with them. */
    @Optional() consequences: TournamentConsequences = new TournamentConsequences(),
  ) {
    this.held = liveTournaments(store, registry);
    this.path = new StreamCommands(referee.gate, this.held, new TournamentWriter(store, referee, consequences), 'the tournament kept changing; try again');
    this.workflows = new TournamentWorkflows(referee, this.held, store, this);
    this.freshness = new Freshness(this.held);
    this.schedules = new TournamentSchedules(this.held, store, this, this.workflows, this.clock, { pollMs: 60_000, sweepMs: 60_000 });
    this.bulk = new BulkRegistrations(referee, (t, entry) => this.step(t, ORGANIZER, null, { type: 'RegisterParticipant', ...entry }), ratings);
    this.entries = new OrganizerEntries(referee, this.held, this.workflows, (t, command) => this.step(t, ORGANIZER, null, command));
  }

  /** Tells subscribers here of every instance's appends, and starts the workflows. */
  async onModuleInit(): Promise<void> {
    if (this.referee.background) this.workflows.start();
    await this.freshness.watch(this.games);
  }

  /** Takes the steps a stopped process left undone, in the background. */
  onApplicationBootstrap(): void {
    if (!this.referee.background) return;
    void this.workflows.catchUpAll();
    this.schedules.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.schedules.stop();
    await this.workflows.stop();
    await this.freshness.stop();
  }

  /** Emits TournamentEventsAppended under the tournament's id for every stored batch. */
  get bus() {
    return this.held.bus;
  }

  // ------------------------------------------------------------------ commands

  create(input: TournamentConfigInput): Promise<{ tournament: LiveTournament; organizerToken: string }> {
    return this.referee.gate.run(async () => {
      const id = `t-${randomBytes(9).toString('base64url')}`;
      const seed = randomBytes(32).toString('hex');
      const decided = unwrap(decideTournament({ type: 'CreateTournament', tournamentId: id, config: input }, null, this.decideCtx(seed, ORGANIZER), { registry: this.registry }));
      const organizerToken = newOrganizerToken();
      // createdAt stands for the row's stamp until the row is read again.
      const { tournament, events } = founded(decided, seed, tokenHash(organizerToken), this.clock.now());
      await this.store.create(tournament.row, events);
      this.held.remember(tournament);
      this.logger.log(`tournament ${id} created (${tournament.config.kind}, ${tournament.config.format})`);
      return { tournament, organizerToken };
    });
  }

  /** The organizer registers a participant, or a participant registers itself when registration is open. */
  async register(
    id: string,
    token: string | null,
    input: { name?: string | null; rating?: number | null; player?: string | null },
    commandId?: string | null,
  ): Promise<{ tournament: LiveTournament; participantId: string; participantToken: string }> {
    const name = checkName(input.name);
    if (!name) throw new RefereeError('INVALID_INPUT', 'a participant needs a display name');
    // A player's key registers its player (as anyone may while registration is open); the organizer names one.
    const byKey = token && isKey(token) ? await this.referee.playerOfKey(token, 'play') : null;
    if (byKey && input.player && input.player !== byKey) throw new RefereeError('INVALID_INPUT', "a player's key registers its own player only");
    if (!byKey && input.player && !(await this.referee.playerCard(input.player))) throw new RefereeError('NOT_FOUND', `no player with id ${input.player}`);
    const player = byKey ?? input.player ?? null;
    const seeded = await seedingRating(this.ratings, (await this.held.recent(id)).config, player, input.rating, byKey !== null);
    if (byKey) token = null;
    const participantId = `p-${randomBytes(9).toString('base64url')}`;
    const participantToken = newParticipantToken();
    const participant = { id: participantId, name, tokenHash: tokenHash(participantToken) };
    const tournament = await this.command(id, token, commandId, { type: 'RegisterParticipant', participantId, name, player, ...seeded }, { anonymous: true, participants: [participant] });
    return { tournament, participantId, participantToken };
  }

  async withdraw(id: string, token: string | null, participantId: string, reason: string | null | undefined, commandId?: string | null): Promise<LiveTournament> {
    // A game that ended a moment ago keeps its own result: the withdrawal forfeits only games still open, and closes them first, as organizer's entries do.
    await this.workflows.catchUp(id);
    const command = { type: 'WithdrawParticipant', participantId, reason: unwrap(checkReason(reason)) } as const;
    const t = await this.held.recent(id);
    const decided = this.step(t, await this.actorOf(t, token), commandId ?? null, command);
    if (decided.ok && !replayed(t, commandId, command)) await this.entries.closeForfeits(t, resultsRecorded(decided.value.decision.drafts));
    return this.command(id, token, commandId, command);
  }

  async setRoundSettings(id: string, token: string | null, input: RoundSettingsInput, commandId?: string | null): Promise<LiveTournament> {
    const settings = unwrap(roundSettingsOf(await this.held.get(id), input));
    return this.command(id, token, commandId, { type: 'SetRoundSettings', settings });
  }

  /** Pairs the next round; its games are charged to `allowance` (the caller's creation quota), all or none. */
  async pairRound(id: string, token: string | null, round: number | null | undefined, commandId?: string | null, allowance?: CreationAllowance): Promise<LiveTournament> {
    // The last games may have ended a moment ago on another instance, their results still on the way: take them first.
    await this.workflows.catchUp(id);
    return this.command(id, token, commandId, { type: 'PairRound', round: round ?? null }, { allowance });
  }

  /** A participant confirms it plays (its own token, or the organizer's), while check-in is open (P2.10). */
  checkIn(id: string, token: string | null, participantId: string, commandId?: string | null): Promise<LiveTournament> {
    return this.command(id, token, commandId, { type: 'CheckIn', participantId });
  }

  /**
   * The referee takes a scheduled tournament's steps due now (P2.9-P2.11): registration and
   * check-in opening and closing, the start, the next round of an autoPair tournament. Its games
   * are charged to no caller's quota. The schedules' step.
   */
  async runSchedule(id: string): Promise<LiveTournament> {
    // The last games may have ended a moment ago on another instance: their results first.
    await this.workflows.catchUp(id);
    return this.path.run(id, {
      replay: () => null,
      decide: (t) => this.step(t, REFEREE, null, { type: 'RunSchedule' }),
      accepted: ({ next }) => {
        this.logger.log(`tournament ${id}: its scheduled steps taken (version ${next.version})`);
        return next;
      },
    });
  }

  async finish(id: string, token: string | null, commandId?: string | null): Promise<LiveTournament> {
    await this.workflows.catchUp(id);
    return this.command(id, token, commandId, { type: 'FinishTournament' });
  }

  /**
   * An organizer's result for a scheduled game, with an optional record that must agree with it.
   * The result and the game's own end are one decision: a game still played is closed with the
   * result first, at the version it is stored at, then the result is recorded; a game that ended
   * first keeps its own result, and an entry that says otherwise is refused (RESULT_ALREADY_RECORDED).
   * A correction replaces a recorded result, and the workflow leaves its game as it ended. The
   * record's game (and a knockout's replay the result schedules) is charged to `allowance`.
   */
  async recordResult(id: string, token: string | null, input: EnteredResult, commandId?: string | null, allowance?: CreationAllowance): Promise<LiveTournament> {
    // A game that ended on the service has its own result, which an entry corrects only as a correction; and a result a failed step left unrecorded is recorded.
    await this.workflows.catchUp(id);
    const t = await this.held.recent(id);
    if ((await this.actorOf(t, token)).role !== 'organizer') throw new RefereeError('FORBIDDEN', 'only the organizer records results');
    const { result, imported } = await this.entries.entered(t, input);
    const command = { type: 'RecordResult', result, correction: input.correction === true } as const;
    const entryId = commandId ?? `result:${result.gameId}:${hashOf(result).slice(0, 16)}`;
    // A correction leaves its game as it ended.
    if (command.correction) return this.command(id, token, entryId, command, { imported, allowance });
    return this.closingEntry(t, token, entryId, command, { imported, allowance });
  }

  /**
   * A participant's report of its over-the-board game (docs/rules/tournaments.md §R3.10), with an
   * optional record: the same entry, record and checks as the organizer's recordResult. Reports that
   * agree record the result and close its game as an organizer's entry does; disagreeing ones open a dispute.
   */
  async reportResult(id: string, token: string | null, input: EnteredResult, commandId?: string | null, allowance?: CreationAllowance): Promise<LiveTournament> {
    await this.workflows.catchUp(id);
    const t = await this.held.recent(id);
    const actor = await this.actorOf(t, token);
    if (actor.role !== 'participant') throw new RefereeError('FORBIDDEN', "a participant reports its game's result; the organizer enters results with recordResult");
    if (input.correction) throw new RefereeError('INVALID_INPUT', 'a report is not a correction: the organizer corrects results');
    const { result, imported } = await this.entries.entered(t, input);
    const command = { type: 'ReportResult', participantId: actor.participantId, result } as const;
    return this.closingEntry(t, token, commandId ?? `report:${actor.participantId}:${hashOf(result).slice(0, 16)}`, command, { imported, allowance });
  }

  /** The organizer settles a dispute by accepting one side's report, with a reason (R3.11); the game is closed with it. */
  async settleDispute(id: string, token: string | null, gameId: string, acceptReportOf: string, reason: string | null | undefined, commandId?: string | null): Promise<LiveTournament> {
    const why = unwrap(checkReason(reason));
    if (!why) throw new RefereeError('INVALID_INPUT', 'settling a dispute needs a reason (R3.11, P2.7)');
    await this.workflows.catchUp(id);
    const t = await this.held.recent(id);
    return this.closingEntry(t, token, commandId ?? `settle:${gameId}`, { type: 'SettleDispute', gameId, acceptReportOf, reason: why }, {});
  }

  /** Registers every row or none (bulk-registrations.ts): the rows refused, each by its number, or the participants with their tokens. */
  async registerMany(id: string, token: string | null, rows: readonly BulkRow[], commandId?: string | null): Promise<BulkRegistration> {
    const t = await this.held.get(id);
    if ((await this.actorOf(t, token)).role !== 'organizer') throw new RefereeError('FORBIDDEN', 'the organizer registers participants in bulk');
    return this.bulk.register(t, rows, (command, participants) => this.command(id, token, commandId, command, { participants }));
  }

  /**
   * A scheduled game ended: its outcome, or the organizer's entry it was closed with, becomes its
   * board's result, once (the command's id is the game's). The workflows' step.
   */
  recordGameResult(game: GameSnapshot, entry: GameResultPayload | null = null): Promise<LiveTournament> {
    const { gameId, outcome } = game;
    return this.path.run(game.tournamentId!, {
      // Recorded already (by another instance, or the organizer's entry came first): nothing to do.
      replay: (t) => {
        const at = boardOfGame(t, gameId);
        return !at || at.board.results[gameId] || !outcome ? t : null;
      },
      decide: (t) => {
        const at = boardOfGame(t, gameId)!;
        const scheduled = at.board.games.find((g) => g.gameId === gameId)!;
        const result = entry ?? resultFromOutcome(t.config, { round: at.round.round, board: at.board.board, game: scheduled }, outcome!, { seq: game.version, hash: game.lastHash });
        return this.step(t, ORGANIZER, `game:${gameId}`, { type: 'RecordResult', result, correction: false });
      },
      accepted: ({ next }) => {
        this.logger.log(`tournament ${next.tournamentId}: game ${gameId}'s result recorded`);
        return next;
      },
    });
  }

  /**
   * A command that may record an entered result (an organizer's entry, agreeing reports, a
   * settlement): the result and its game's end are one decision, the game closed first (organizer-entries.ts).
   */
  private async closingEntry(
    t: LiveTournament,
    token: string | null,
    entryId: string,
    command: Extract<TournamentCommand, { type: 'RecordResult' | 'ReportResult' | 'SettleDispute' }>,
    { imported, allowance }: { imported?: TournamentStep['imported']; allowance?: CreationAllowance },
  ): Promise<LiveTournament> {
    const entered = () => this.command(t.tournamentId, token, entryId, command, { imported, allowance });
    // A retry was decided already; a bad command id closes nothing.
    if (replayed(t, entryId, command)) return entered();
    // An entry for a game that ended first is answered below: as recorded already if it says the same.
    const decided = this.step(t, await this.actorOf(t, token), entryId, command, { imported });
    if (!decided.ok && !(command.type === 'RecordResult' && decided.error.code === 'RESULT_ALREADY_RECORDED')) unwrap(decided);
    const result = decided.ok ? resultsRecorded(decided.value.decision.drafts)[0] : (command as { result: GameResultPayload }).result;
    if (!result) return entered();
    // A quota that cannot pay for the record's game refuses the entry before its game is closed.
    if (imported && allowance) {
      allowance.take(1);
      allowance.giveBack(1);
    }
    return (await this.entries.closeGame(t, { type: 'RecordResult', result, correction: false })) ?? this.entries.record(t.tournamentId, result, entered);
  }

  // ------------------------------------------------------------------ reads (they never write)

  tournament(id: string): Promise<LiveTournament> {
    return this.held.get(id);
  }

  /** A page of the tournaments, newest first: `first` (1 to 100) after the tournament `after` (its id is its cursor), and whether more follow. */
  async page(first: number, after?: string | null): Promise<{ rows: TournamentRow[]; hasNextPage: boolean }> {
    let cursor: { createdAt: Date; id: string } | undefined;
    if (after) {
      if (!isTournamentId(after)) throw new RefereeError('INVALID_INPUT', 'after: a cursor of the tournaments list');
      const row = await this.store.tournament(after);
      if (!row) throw new RefereeError('INVALID_INPUT', 'after: no tournament with that cursor');
      cursor = { createdAt: row.createdAt, id: row.id };
    }
    const size = Math.min(Math.max(first, 1), 100);
    const rows = await this.store.list(size + 1, cursor);
    return { rows: rows.slice(0, size), hasNextPage: rows.length > size };
  }

  /** Standings after the completed rounds, or `afterRound` of them (TB8.11); lots from the tournament's own seed. */
  standings(t: LiveTournament, afterRound?: number | null) {
    return unwrap(standingsAfter(t, new SeededLots(t.row.seed, t.tournamentId), afterRound));
  }

  /** The stored events after `afterSeq` (up to `untilSeq`, if given). */
  async events(id: string, afterSeq = 0, untilSeq?: number): Promise<StoredEvent[]> {
    await this.held.get(id);
    return this.store.events(id, afterSeq, untilSeq);
  }

  /** Everything to verify the tournament offline: its stream and every game's own bundle. */
  async bundle(id: string): Promise<TournamentBundle> {
    const t = await this.held.get(id);
    const games: Bundle[] = [];
    for (const gameId of bundledGameIds(t)) games.push(await this.referee.bundle(gameId));
    return tournamentBundle(t, await this.store.events(id, 0), games);
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

  /** An organizer's or a participant's command through the command path (which decides on the tournament as stored); a command id already used answers the tournament as it is. */
  private async command(
    id: string,
    token: string | null,
    commandId: string | null | undefined,
    command: Exclude<TournamentCommand, { type: 'CreateTournament' }>,
    options: { anonymous?: boolean; participants?: TournamentStep['participants']; imported?: TournamentStep['imported']; allowance?: CreationAllowance } = {},
  ): Promise<LiveTournament> {
    const t = await this.held.recent(id);
    replayed(t, commandId, command);
    const actor: TournamentActor = !token && options.anonymous ? { role: 'participant', participantId: '' } : await this.actorOf(t, token);
    return this.path.run(id, {
      replay: (current) => (replayed(current, commandId, command) ? current : null),
      decide: (current) => this.step(current, actor, commandId ?? null, command, options),
      accepted: ({ next }) => next,
      allowance: options.allowance,
    });
  }

  /** The decider's answer to a command, as the command path stores it. */
  private step(
    t: LiveTournament,
    actor: TournamentActor,
    commandId: string | null,
    command: Exclude<TournamentCommand, { type: 'CreateTournament' }>,
    { participants, imported }: Pick<TournamentStep, 'participants' | 'imported'> = {},
  ): Result<TournamentStep> {
    const decided = decideTournament(command, t, this.decideCtx(t.row.seed, actor), { registry: this.registry });
    return decided.ok ? ok({ decision: decided.value, commandId, bodyHash: hashOf(command), participants, imported }) : decided;
  }
}
