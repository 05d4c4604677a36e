import { pageOf } from '../api/connection.js';
import { timeControlOf, toTimeControl } from '../api/mapping.js';
import { tournamentRuleset } from '../games/tournament-rulesets.js';
import {
  boardComplete,
  type BoardState,
  completedRounds,
  crosstable,
  type EnteredResult,
  type Format,
  type GameResultPayload,
  historyOf,
  type LiveTournament,
  rationalText,
  RefereeError,
  roundComplete,
  type RoundSettings,
  type RoundState,
  type StoredEvent,
  type TournamentConfigInput,
  type TournamentRow,
  type TournamentService,
  type TournamentState,
  tournamentStatusOf,
} from '../referee/index.js';
import type { CreateTournamentInput } from './dto/create-tournament.input.js';
import type { TournamentGameFields } from './dto/tournament-ruleset.input.js';
import type { TournamentScheduleInput } from './dto/schedule.input.js';
import type { ResultInput } from './dto/result.input.js';
import type { RoundSettingsInput } from './dto/round-settings.input.js';
import { EncounterResult, ResultSource, type RoundEntryKind, type SeatResultKind, TournamentFormat, type TournamentStatus } from './models/enums.js';
import type {
  CrosstableRow,
  ParticipantRef,
  StandingRow,
  Tournament,
  TournamentBoard,
  TournamentEvent,
  TournamentGame,
  TournamentGameResult,
  TournamentRound,
  TournamentSummary,
} from './models/tournament.js';
import type { TournamentConnection } from './models/answers.js';
import { scheduleView } from './schedule-view.js';

/**
 * Tournaments as the API shows them, the same plain objects for GraphQL and REST: participants
 * named where they play, points as exact numbers ("3/2"), and never the secret seed (only the
 * one revealed at the end).
 */

/** A Tournament model keeps the tournament for its field resolvers (standings, crosstable, events). */
export type TournamentModel = Tournament & { live: LiveTournament };

const FORMAT_NAMES: Readonly<Record<Format, TournamentFormat>> = {
  roundRobin: TournamentFormat.ROUND_ROBIN,
  doubleRoundRobin: TournamentFormat.DOUBLE_ROUND_ROBIN,
  swiss: TournamentFormat.SWISS,
  knockout: TournamentFormat.KNOCKOUT,
  doubleElimination: TournamentFormat.DOUBLE_ELIMINATION,
  groupsKnockout: TournamentFormat.GROUPS_KNOCKOUT,
  tables: TournamentFormat.TABLES,
};
const FORMATS = Object.fromEntries(Object.entries(FORMAT_NAMES).map(([word, name]) => [name, word])) as Readonly<Record<TournamentFormat, Format>>;

const ENCOUNTER: Readonly<Record<'win' | 'draw' | 'loss', EncounterResult>> = { win: EncounterResult.WIN, draw: EncounterResult.DRAW, loss: EncounterResult.LOSS };

const given = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

/** The schedule as the rules read it: instants in their ISO 8601 form. */
function scheduleOf(s: TournamentScheduleInput) {
  const iso = (d: Date | null | undefined) => (d ? d.toISOString() : undefined);
  return { ...s, startAt: iso(s.startAt), registrationOpensAt: iso(s.registrationOpensAt), registrationClosesAt: iso(s.registrationClosesAt) };
}

/**
 * The tournament's game as the rules read it: the game's typed ruleset, or JSON with choices in
 * the typed API's spelling (ONLINE) or the engine's ("online"), as createGame takes them. Throws
 * the refusal of a typed ruleset given for another kind, or of two rulesets at once.
 */
export function gameInputOf(input: TournamentGameFields): Pick<TournamentConfigInput, 'kind' | 'ruleset' | 'format'> {
  return { kind: input.kind, ruleset: tournamentRuleset(input.kind, given(input.ruleset), input), format: FORMATS[input.format] };
}

export function configInputOf(input: CreateTournamentInput): TournamentConfigInput {
  const points = input.points ? { win: given(input.points.win), draw: given(input.points.draw), loss: given(input.points.loss) } : undefined;
  return {
    name: given(input.name),
    ...gameInputOf(input),
    rounds: given(input.rounds),
    points,
    byePoints: given(input.byePoints),
    lateEntryPoints: given(input.lateEntryPoints),
    requestedByePoints: given(input.requestedByePoints),
    maxRequestedByes: given(input.maxRequestedByes),
    tieBreaks: given(input.tieBreaks),
    rrNumbering: given(input.rrNumbering),
    koSeeding: given(input.koSeeding),
    gamesPerMatch: given(input.gamesPerMatch),
    koTieRule: given(input.koTieRule),
    thirdPlaceMatch: given(input.thirdPlaceMatch),
    bracketReset: given(input.bracketReset),
    groupCount: given(input.groupCount),
    groupSize: given(input.groupSize),
    advancePerGroup: given(input.advancePerGroup),
    minSeats: given(input.minSeats),
    placementPoints: given(input.placementPoints),
    tableByePoints: given(input.tableByePoints),
    tableSeating: given(input.tableSeating),
    openRegistration: given(input.openRegistration),
    selfWithdrawal: given(input.selfWithdrawal),
    playerReports: given(input.playerReports),
    rated: given(input.rated),
    timeControl: timeControlOf(input.timeControl),
    schedule: input.schedule ? scheduleOf(input.schedule) : undefined,
  };
}

/** Pairs as the service takes them; it refuses any that is not two different ids. */
const asPair = (ids: string[]) => ids as [string, string];

export function roundSettingsOf(input: RoundSettingsInput): Partial<Omit<RoundSettings, 'round'>> & { round?: number | null } {
  return {
    round: input.round,
    manualPairings: input.manualPairings?.map((p) => ({ a: p.a, b: p.b, seats: p.seats ? asPair(p.seats) : null })),
    manualBye: input.manualBye,
    manualTables: given(input.manualTables),
    absent: given(input.absent),
    requestedByes: given(input.requestedByes),
    forbiddenPairs: input.forbiddenPairs?.map(asPair),
    seeds: input.seeds,
  };
}

export function enteredResultOf(input: ResultInput): EnteredResult {
  return { ...input, outcome: input.outcome ?? null };
}

/** Each participant named where it plays. */
function refsOf(t: TournamentState): (id: string) => ParticipantRef {
  const byId = new Map(t.participants.map((p) => [p.id, { id: p.id, registrationNo: p.registrationNo, name: p.name }]));
  return (id) => byId.get(id)!;
}

export function resultView(r: GameResultPayload): TournamentGameResult {
  return {
    source: r.source === 'game' ? ResultSource.GAME : ResultSource.ORGANIZER,
    kinds: r.seats.map((s) => s.kind as SeatResultKind),
    gamePoints: r.seats.map((s) => s.gamePoints),
    ranking: r.ranking,
    recordGameId: r.record?.gameId ?? null,
    reason: r.reason,
  };
}

/** A game's reports and whether they are disputed (R3.10, R3.11). */
function reportsView(t: TournamentState, gameId: string, ref: (id: string) => ParticipantRef): Pick<TournamentGame, 'reports' | 'disputed'> {
  const game = t.reports?.[gameId];
  return { reports: Object.entries(game?.reports ?? {}).map(([id, r]) => ({ participant: ref(id), result: resultView(r) })), disputed: game?.disputed ?? false };
}

function boardView(t: TournamentState, b: BoardState, ref: (id: string) => ParticipantRef): TournamentBoard {
  return {
    board: b.board,
    seats: b.seats.map(ref),
    manual: b.manual,
    walkover: b.walkover ? ref(b.walkover) : null,
    winner: b.winner ? ref(b.winner) : null,
    complete: boardComplete(t, b),
    games: b.games.map((g) => ({ gameId: g.gameId, seats: g.seats.map(ref), result: b.results[g.gameId] ? resultView(b.results[g.gameId]) : null, ...reportsView(t, g.gameId, ref) })),
  };
}

function roundView(t: TournamentState, r: RoundState, ref: (id: string) => ParticipantRef): TournamentRound {
  return {
    round: r.round,
    complete: roundComplete(t, r),
    boards: r.boards.map((b) => boardView(t, b, ref)),
    byes: r.byes.map(ref),
    rest: r.rest ? ref(r.rest) : null,
    absent: r.absent.map(ref),
    requestedByes: r.requestedByes.map(ref),
    warnings: r.warnings,
  };
}

/** The tournament without standings, crosstable and events (asked for separately). */
export function tournamentView(t: LiveTournament): Tournament {
  const ref = refsOf(t);
  return {
    id: t.tournamentId,
    name: t.config.name,
    kind: t.config.kind,
    format: FORMAT_NAMES[t.config.format],
    status: tournamentStatusOf(t) as TournamentStatus,
    version: t.version,
    headHash: t.lastHash,
    seedCommitment: t.seedCommitment,
    // The row's seed is secret until the end; the revealed one is what TournamentFinished recorded.
    seed: t.revealedSeed,
    config: t.config,
    timeControl: t.config.timeControl ? toTimeControl(t.config.timeControl) : null,
    totalRounds: t.totalRounds,
    completedRounds: completedRounds(t),
    participants: t.participants.map((p) => ({
      id: p.id,
      registrationNo: p.registrationNo,
      name: p.name,
      rating: p.rating,
      entryRound: p.entryRound,
      withdrawnAfterRound: p.withdrawnAfterRound,
      externalId: p.externalId ?? null,
      requestedByes: p.requestedByes ?? [],
    })),
    rounds: t.rounds.map((r) => roundView(t, r, ref)),
    games: t.rounds.flatMap((r) => r.boards.flatMap((b) => b.games.map((g) => g.gameId))),
    createdAt: t.row.createdAt,
    schedule: scheduleView(t),
  };
}

export const toTournament = (t: LiveTournament): TournamentModel => ({ ...tournamentView(t), live: t });

function summaryView(row: TournamentRow): TournamentSummary {
  return { id: row.id, name: row.name, kind: row.kind, format: FORMAT_NAMES[row.format as Format], status: row.status as TournamentStatus, createdAt: row.createdAt };
}

/** A page of tournaments as a connection: each tournament's id is its cursor. */
export function tournamentConnection(page: { rows: TournamentRow[]; hasNextPage: boolean }): TournamentConnection {
  return pageOf(
    page.rows.map(summaryView).map((node) => ({ cursor: node.id, node })),
    { hasNextPage: page.hasNextPage },
  );
}

/** Standings rows from the service's answer: a knockout's placings rank it, without points or tie-breaks. */
export function standingsView(t: TournamentState, standings: ReturnType<TournamentService['standings']>): StandingRow[] {
  const participant = refsOf(t);
  if (standings.knockout) {
    return standings.knockout.map((p) => ({
      rank: p.place,
      participantId: p.participantId,
      registrationNo: participant(p.participantId).registrationNo,
      name: participant(p.participantId).name,
      tp: null,
      tieBreaks: [],
    }));
  }
  return standings.rows.map((r) => ({
    rank: r.rank,
    participantId: r.participantId,
    registrationNo: r.registrationNo,
    name: participant(r.participantId).name,
    tp: rationalText(r.tp),
    tieBreaks: r.tieBreaks.map((b) => ({ name: b.name, value: b.value ? rationalText(b.value) : null })),
  }));
}

/** Every participant's completed rounds (TB8.11: the rounds standings count), or those up to `afterRound`. */
export function crosstableView(t: TournamentState, afterRound?: number | null): CrosstableRow[] {
  const rounds = afterRound ?? completedRounds(t);
  if (!Number.isInteger(rounds) || rounds < 0 || rounds > completedRounds(t)) throw new RefereeError('INVALID_INPUT', `the crosstable exists after rounds 0 to ${completedRounds(t)}`);
  const ref = refsOf(t);
  return crosstable({ participants: t.participants, history: historyOf(t, rounds), rounds }).map((row) => ({
    participantId: row.participantId,
    registrationNo: row.registrationNo,
    name: ref(row.participantId).name,
    cells: row.cells.map((c) => ({
      round: c.round,
      kind: c.kind as RoundEntryKind,
      opponents: c.opponents.map((o) => ref(o.id)),
      seat: c.seat,
      result: c.result ? ENCOUNTER[c.result] : null,
      tp: rationalText(c.tp),
    })),
  }));
}

export const eventView = (e: StoredEvent): TournamentEvent => ({ seq: e.seq, type: e.type, actor: e.actor, payload: e.payload, createdAt: new Date(e.createdAt), hash: e.hash, prevHash: e.prevHash });

/** One line of the games export: a scheduled game, where it is played, by whom, and how it stands. */
export function scheduledGames(t: TournamentState, gameStatus: (gameId: string) => string | null) {
  const ref = refsOf(t);
  return t.rounds.flatMap((r) =>
    r.boards.flatMap((b) =>
      b.games.map((g) => ({
        gameId: g.gameId,
        round: r.round,
        board: b.board,
        seats: g.seats.map((id) => ({ participantId: id, name: ref(id).name })),
        status: gameStatus(g.gameId),
        result: b.results[g.gameId] ? resultView(b.results[g.gameId]) : null,
      })),
    ),
  );
}

/** RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. */
const csvField = (value: string): string => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** The standings as CSV: rank, registration number, name, points and each tie-break, exact; CRLF lines. */
export function standingsCsv(rows: StandingRow[], tieBreaks: readonly string[]): string {
  const header = ['rank', 'registrationNo', 'name', 'tp', ...tieBreaks];
  const lines = rows.map((r) => [String(r.rank), String(r.registrationNo), r.name, r.tp ?? '', ...tieBreaks.map((name) => r.tieBreaks.find((b) => b.name === name)?.value ?? '')]);
  return [header, ...lines].map((fields) => fields.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** `afterSeq` as given (null: from the first event); a negative or fractional one is refused before any read. */
export function afterSeqOf(afterSeq: number | null | undefined): number {
  const after = afterSeq ?? 0;
  if (!Number.isInteger(after) || after < 0) throw new RefereeError('INVALID_INPUT', 'afterSeq must be a whole number (0 or more)');
  return after;
}
