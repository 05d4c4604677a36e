import type { EngineRegistry } from '../core/engine-registry.js';
import { hashOf } from '../core/canonical.js';
import { isTournamentId } from '../core/ids.js';
import { RefereeError } from '../core/errors.js';
import { foldTournament } from '../core/tournament/audit.js';
import { type TournamentDecision, tournamentAggregate } from '../core/tournament/decider.js';
import { decodeTournamentEvent, type ScheduledGame } from '../core/tournament/events.js';
import { statusOf, type TournamentState } from '../core/tournament/state.js';
import { advanceHead, chainEvents, emptyHead, type Folded, type StoredEvent } from '../core/stream.js';
import type { TournamentRow, TournamentStore } from '../store/tournament-store.js';
import { Consequences } from './consequences.js';
import type { PreparedGame } from './game-setup.js';
import { HeldStreams, type StreamSource } from './held-streams.js';
import type { RefereeService } from './referee.service.js';
import type { Advanced, Chained, StreamWriter } from './stream-commands.js';

const COMMAND_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/**
 * Whether `commandId` stored this very command already (the command path answers it as before),
 * checked before anything is done for it: refused when it is malformed (INVALID_INPUT) or was
 * used for another command (COMMAND_ID_REUSED). No id: never a replay.
 */
export function replayed(t: Folded<unknown>, commandId: unknown, command: unknown): boolean {
  if (commandId === undefined || commandId === null) return false;
  if (typeof commandId !== 'string' || !COMMAND_ID.test(commandId)) throw new RefereeError('INVALID_INPUT', 'commandId must be 1-128 characters: letters, digits, _ . : -');
  const previous = t.commands.get(commandId);
  if (previous && previous.bodyHash !== hashOf(command)) throw new RefereeError('COMMAND_ID_REUSED', `command id ${commandId} was already used for another command`);
  return previous !== undefined;
}

/** A tournament as this process holds it: the folded stream and its row (secret seed, organizer). */
export type LiveTournament = Folded<TournamentState> & { row: TournamentRow };

/** The tournaments' consequences (the players' stream and the webhooks' messages its notices make, the transparency log's entry of a finished tournament): stored in the append's transaction. */
export class TournamentConsequences extends Consequences<LiveTournament> {}

/** Published on the tournaments' bus under the tournament's id for every stored batch of its events. */
export type TournamentEventsAppended = { tournamentId: string; events: StoredEvent[] };

/** The tournaments this process holds (see HeldStreams). */
export type LiveTournaments = HeldStreams<LiveTournament, TournamentEventsAppended>;

/** Tournaments held at most: few are played at once, and each read compares it with its stored version. */
const MAX_RUNNING = 200;
const MAX_FINISHED = 50;

export function liveTournaments(store: TournamentStore, registry: EngineRegistry): LiveTournaments {
  return new HeldStreams(new TournamentStreams(store, registry), { running: MAX_RUNNING, over: MAX_FINISHED, readsStoredVersion: true });
}

/** How a tournament's stream is read and folded: every hash and lot checked (pairings were recomputed when decided, not again here). */
class TournamentStreams implements StreamSource<LiveTournament, TournamentEventsAppended> {
  readonly name = 'tournament';

  constructor(
    private readonly store: TournamentStore,
    private readonly registry: EngineRegistry,
  ) {}

  readonly isId = isTournamentId;
  readonly idOf = (t: LiveTournament) => t.tournamentId;
  readonly isOver = (t: LiveTournament) => t.finished;
  readonly moved = (t: LiveTournament): TournamentEventsAppended => ({ tournamentId: t.tournamentId, events: [] });

  versions(ids: readonly string[]): Promise<Map<string, number>> {
    return this.store.versions(ids);
  }

  async load(id: string): Promise<LiveTournament> {
    const row = await this.store.tournament(id);
    if (!row) throw new RefereeError('NOT_FOUND', `no tournament with id ${id}`);
    return { ...foldTournament(this.registry, id, await this.store.events(id), row.seed, { recompute: false }), row };
  }

  async follow(held: LiveTournament): Promise<{ state: LiveTournament; batch: TournamentEventsAppended } | null> {
    const events = await this.store.events(held.tournamentId, held.version);
    if (events.length === 0) return null;
    const { row, ...from } = held;
    const folded = foldTournament(this.registry, held.tournamentId, events, row.seed, { recompute: false, from });
    return { state: { ...folded, row }, batch: { tournamentId: held.tournamentId, events } };
  }
}

/** A new tournament's stream and row, from its founding decision; `createdAt` stands for the row's stamp. */
export function founded(decided: TournamentDecision, seed: string, organizerTokenHash: string, createdAt: Date): { tournament: LiveTournament; events: StoredEvent[] } {
  const { config, tournamentId: id, seedCommitment } = decided.state;
  const events = chainEvents(id, emptyHead(), decided.drafts);
  const head = advanceHead(emptyHead(), events, tournamentAggregate.follows);
  const status = statusOf(decided.state);
  const row = { id, name: config.name, kind: config.kind, format: config.format, status, version: head.version, headHash: head.lastHash, seedCommitment, seed, organizerTokenHash, createdAt };
  return { tournament: { ...decided.state, ...head, row }, events };
}

/** A tournament's decision as the command path stores it: with the command's id, and the participant it registers. */
export interface TournamentStep {
  decision: TournamentDecision;
  commandId: string | null;
  bodyHash: string;
  /** A registration (one, or a bulk registration's): the new participants' ids, names and token hashes. */
  participants?: { id: string; name: string; tokenHash: string }[];
  /** An organizer's result: the game its record was replayed into, stored with it. */
  imported?: PreparedGame;
}

export type AdvancedTournament = Advanced<LiveTournament, TournamentEventsAppended> & {
  /** The games its events schedule (a pairing, a knockout replay), decided and ready to store. */
  games: PreparedGame[];
};

/**
 * The tournament's part of the command path: a decision chained after the tournament, stored in
 * one transaction with the games it schedules (all or none) and the participant it registers;
 * once stored, the games are the referee's to hold and time.
 */
export class TournamentWriter implements StreamWriter<LiveTournament, TournamentStep, AdvancedTournament> {
  constructor(
    private readonly store: TournamentStore,
    private readonly referee: RefereeService,
    private readonly consequences: TournamentConsequences,
  ) {}

  advance(t: LiveTournament, { decision, commandId, bodyHash, imported }: TournamentStep): AdvancedTournament {
    const [first, ...rest] = decision.drafts;
    const drafts = commandId && first ? [{ ...first, moveId: commandId, bodyHash }, ...rest] : decision.drafts;
    const events = chainEvents(t.tournamentId, t, drafts);
    const next: LiveTournament = { ...decision.state, ...advanceHead(t, events, tournamentAggregate.follows), row: t.row };
    const games = this.scheduledGames(next, events);
    return { next, events, batch: { tournamentId: t.tournamentId, events }, games: imported ? [...games, imported] : games };
  }

  created({ games }: AdvancedTournament): number {
    return games.length;
  }

  append(t: LiveTournament, advanced: AdvancedTournament, decision: TournamentStep): Promise<void> {
    return this.appendTogether(t, [{ advanced, decision }]);
  }

  /** Commands that queued together (a round's results arriving at once): one statement, as one command's. */
  async appendTogether(t: LiveTournament, steps: readonly Chained<AdvancedTournament, TournamentStep>[]): Promise<void> {
    const next = steps.at(-1)!.advanced.next;
    const registered = steps.flatMap(({ decision: { participants = [] } }) =>
      participants.flatMap((p) => {
        const r = next.participants.find((x) => x.id === p.id);
        return r ? [{ ...p, registrationNo: r.registrationNo }] : [];
      }),
    );
    const games = steps.flatMap((s) => s.advanced.games);
    // Each game's creation implies rows (its first mover told, its deadline, the inbox), stored with it; so does each step's events, from the tournament before it.
    const implied = await Promise.all(games.map((g) => this.referee.creationImplies(g)));
    const own = await Promise.all(steps.map((s, i) => this.consequences.implied(i === 0 ? t : steps[i - 1].advanced.next, s.advanced.next, s.advanced.events)));
    await this.store.append(
      t.tournamentId,
      steps.flatMap((s) => s.advanced.events),
      { version: next.version, hash: next.lastHash, status: statusOf(next) },
      {
        ...(registered.length > 0 ? { participants: registered } : {}),
        games: games.map((g, i) => ({ ...g, consequences: implied[i].rows })),
        consequences: own.flatMap((o) => o.rows),
      },
    );
    for (const i of implied) i.stored();
    for (const o of own) o.stored();
  }

  afterStore(_t: LiveTournament, { games }: AdvancedTournament): void {
    this.referee.stored(games);
  }

  /** The games the new events schedule, each decided as a new game of the tournament. */
  private scheduledGames(t: TournamentState, events: readonly StoredEvent[]): PreparedGame[] {
    const participant = (pid: string) => t.participants.find((p) => p.id === pid);
    const prepare = (round: number, board: number, g: ScheduledGame) =>
      this.referee.tournamentGame({
        gameId: g.gameId,
        kind: t.config.kind,
        // A smaller table plays the same rules with fewer players (TA7.3).
        ruleset: t.config.format === 'tables' ? t.config.tableRulesets[String(g.seats.length)] : t.config.ruleset,
        timeControl: t.config.timeControl ?? null,
        seats: g.seats.map((participantId) => ({ participantId, name: participant(participantId)?.name ?? participantId, player: participant(participantId)?.player ?? null })),
        tournament: { id: t.tournamentId, round, board },
        rated: t.config.rated === true,
      });
    return events.flatMap((stored) => {
      const e = decodeTournamentEvent(stored);
      if (!e.ok) return [];
      if (e.value.type === 'RoundPaired') {
        const { round, boards } = e.value.payload;
        return boards.flatMap((b) => b.games.map((g) => prepare(round, b.board, g)));
      }
      if (e.value.type === 'GamesScheduled') {
        const { round, board, games } = e.value.payload;
        return games.map((g) => prepare(round, board, g));
      }
      return [];
    });
  }
}
