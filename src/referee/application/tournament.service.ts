import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { ok, type Result } from '../../engines/kit/index.js';
import type { Bundle } from '../core/audit.js';
import { hashOf } from '../core/canonical.js';
import { EngineRegistry } from '../core/engine-registry.js';
import { isTournamentId } from '../core/ids.js';
import { RefereeError } from '../core/errors.js';
import { bundledGameIds, type TournamentBundle, tournamentBundle } from '../core/tournament/audit.js';
import type { TournamentConfigInput } from '../core/tournament/config.js';
import { decideTournament, type TournamentActor, type TournamentCommand } from '../core/tournament/decider.js';
import type { GameResultPayload } from '../core/tournament/events.js';
import { checkRating, checkReason, type EnteredResult, enteredGame, enteredResult, type RecordedGame, resultsRecorded, type RoundSettingsInput, roundSettingsOf } from '../core/tournament/entry.js';
import { standingsAfter } from '../core/tournament/formats.js';
import { SeededLots } from '../core/tournament/lots.js';
import { resultFromOutcome } from '../core/tournament/results.js';
import { boardOfGame } from '../core/tournament/state.js';
import type { StoredEvent } from '../core/stream.js';
import { EventStore } from '../store/event-store.js';
import { type TournamentRow, TournamentStore } from '../store/tournament-store.js';
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
  type TournamentStep,
  TournamentWriter,
} from './tournament-streams.js';
import { type GameResults, TournamentWorkflows } from './tournament-workflows.js';

export type { EnteredResult, LiveTournament, TournamentEventsAppended };

/** The organizer: the creator of a tournament, and the actor of the referee's own commands in it (a refereed game's result). */
const ORGANIZER: TournamentActor = { role: 'organizer' };

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
  private readonly freshness: Freshness;

  constructor(
    private readonly store: TournamentStore,
    private readonly games: EventStore,
    private readonly referee: RefereeService,
    private readonly registry: EngineRegistry,
    /** Every decision's time, as the referee's (tests move it by hand). */
    @Optional() private readonly clock: Clock = new SystemClock(),
  ) {
    this.held = liveTournaments(store, registry);
    this.path = new StreamCommands(referee.gate, this.held, new TournamentWriter(store, referee), 'the tournament kept changing; try again');
    this.workflows = new TournamentWorkflows(referee, this.held, store, this);
    this.freshness = new Freshness(this.held);
    this.entries = new OrganizerEntries(referee, this.held, this.workflows, (t, command) => this.step(t, ORGANIZER, null, command));
  }

  /** Tells subscribers here of every instance's appends, and starts the workflows. */
  async onModuleInit(): Promise<void> {
    this.workflows.start();
    await this.freshness.watch(this.games);
  }

  /** Takes the steps a stopped process left undone, in the background. */
  onApplicationBootstrap(): void {
    void this.workflows.catchUpAll();
  }

  async onModuleDestroy(): Promise<void> {
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
    const rating = unwrap(checkRating(input.rating));
    // A player's key registers its player (as anyone may while registration is open); the organizer names one.
    const byKey = token && isKey(token) ? await this.referee.playerOfKey(token, 'play') : null;
    if (byKey && input.player && input.player !== byKey) throw new RefereeError('INVALID_INPUT', "a player's key registers its own player only");
    if (!byKey && input.player && !(await this.referee.playerCard(input.player))) throw new RefereeError('NOT_FOUND', `no player with id ${input.player}`);
    const player = byKey ?? input.player ?? null;
    if (byKey) token = null;
    const participantId = `p-${randomBytes(9).toString('base64url')}`;
    const participantToken = newParticipantToken();
    const participant = { id: participantId, name, tokenHash: tokenHash(participantToken) };
    const tournament = await this.command(id, token, commandId, { type: 'RegisterParticipant', participantId, name, rating, player }, { anonymous: true, participant });
    return { tournament, participantId, participantToken };
  }

  async withdraw(id: string, token: string | null, participantId: string, reason: string | null | undefined, commandId?: string | null): Promise<LiveTournament> {
    // A game that ended a moment ago keeps its own result: the withdrawal forfeits only games still open.
    await this.workflows.catchUp(id);
    const command = { type: 'WithdrawParticipant', participantId, reason: unwrap(checkReason(reason)) } as const;
    // Its forfeits close their games first, as organizer's entries do.
    const t = await this.held.get(id);
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
    // A game that ended on the service has its own result, which an entry corrects only as a correction.
    await this.workflows.catchUp(id);
    const t = await this.held.get(id);
    if ((await this.actorOf(t, token)).role !== 'organizer') throw new RefereeError('FORBIDDEN', 'only the organizer records results');
    const game = unwrap(enteredGame(t, input));
    unwrap(checkReason(input.reason));
    // The record's game is stored with the result it attests, or not at all: a refused entry leaves nothing.
    const imported = input.record === undefined || input.record === null ? undefined : await this.referee.preparedRecord(t.config.kind, input.record);
    const record: RecordedGame | null = imported ? { gameId: imported.game.gameId, seq: imported.game.version, hash: imported.game.lastHash, outcome: imported.game.outcome } : null;
    const result = unwrap(enteredResult(t, input, game, record));
    const command = { type: 'RecordResult', result, correction: input.correction === true } as const;
    const entryId = commandId ?? `result:${result.gameId}:${hashOf(result).slice(0, 16)}`;
    const entered = () => this.command(id, token, entryId, command, { imported, allowance });
    // A correction leaves its game as it ended; a retry was decided already; a bad command id closes nothing.
    if (command.correction || replayed(t, entryId, command)) return entered();
    // A quota that cannot pay for the record's game refuses the entry before its game is closed.
    if (imported && allowance) {
      allowance.take(1);
      allowance.giveBack(1);
    }
    return (await this.entries.closeGame(t, command)) ?? this.entries.record(id, result, entered);
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

  /** An organizer's or a participant's command through the command path; a command id already used answers the tournament as it is. */
  private async command(
    id: string,
    token: string | null,
    commandId: string | null | undefined,
    command: Exclude<TournamentCommand, { type: 'CreateTournament' }>,
    options: { anonymous?: boolean; participant?: TournamentStep['participant']; imported?: TournamentStep['imported']; allowance?: CreationAllowance } = {},
  ): Promise<LiveTournament> {
    const t = await this.held.get(id);
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
    { participant, imported }: Pick<TournamentStep, 'participant' | 'imported'> = {},
  ): Result<TournamentStep> {
    const decided = decideTournament(command, t, this.decideCtx(t.row.seed, actor), { registry: this.registry });
    return decided.ok ? ok({ decision: decided.value, commandId, bodyHash: hashOf(command), participant, imported }) : decided;
  }
}
