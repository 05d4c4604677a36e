import { fail, ok, type Result } from '../../../engines/kit/index.js';
import type { EngineRegistry } from '../engine-registry.js';
import { MALFORMED, type StoredEvent } from '../stream.js';
import { type DisputeSettledPayload, type GameRef, type GameResultPayload, ORGANIZER, type ResultReportedPayload, type TournamentEvent } from './events.js';
import { impossibleResult, resultShapeProblem, sameResult } from './results.js';
import { boardOfGame, type GameReports, participantById, type TournamentState } from './state.js';

/**
 * Results participants report (docs/rules/tournaments.md §R3.10, §R3.11): when the organizer
 * allows it (`playerReports`), each side of an over-the-board game reports its result; reports
 * that agree record it, reports that disagree open a dispute the organizer settles. The same
 * checks run when deciding and when folding (the verifier), so a bundle holding a report the
 * rules refuse, or a result recorded by participants without agreeing reports, is INVALID.
 */

export type ReportCommand =
  | { type: 'ReportResult'; participantId: string; result: GameResultPayload }
  /** The organizer accepts one side's report; `reason` is kept (P2.7). */
  | { type: 'SettleDispute'; gameId: string; acceptReportOf: string; reason: string };

/** What a report command decides: the events before the result, and the result they record (if any). */
export interface ReportDecision {
  events: TournamentEvent[];
  /** Recorded after `events`, by the usual path (a knockout's next game, the tournament's end). */
  result: GameResultPayload | null;
}

type Actor = { role: 'organizer' } | { role: 'participant'; participantId: string } | { role: 'referee' };

const gameAt = (t: TournamentState, ref: Pick<GameRef, 'round' | 'board' | 'gameId'>) => {
  const board = t.rounds[ref.round - 1]?.boards.find((b) => b.board === ref.board);
  const game = board?.games.find((g) => g.gameId === ref.gameId);
  return board && game ? { board, game } : null;
};

const reportsOf = (t: TournamentState, gameId: string): GameReports | undefined => t.reports?.[gameId];

/** Where a game's reports stand once every seat has reported: agreed (the result), or disputed. */
function verdict(t: TournamentState, gameId: string): { agreed: GameResultPayload } | 'DISPUTED' | null {
  const reports = reportsOf(t, gameId);
  const seats = boardOfGame(t, gameId)?.board.games.find((g) => g.gameId === gameId)?.seats;
  if (!reports || !seats || seats.some((s) => !reports.reports[s])) return null;
  const all = seats.map((s) => reports.reports[s]);
  if (all.some((r) => !sameResult(r, all[0]))) return 'DISPUTED';
  // R3.10: the result recorded is the reports' own; a record one side attached comes with it.
  return { agreed: { ...(all.find((r) => r.record) ?? all[all.length - 1]), reason: all.find((r) => r.reason)?.reason ?? 'reported by both sides (R3.10)' } };
}

/**
 * The events a report or a settlement causes, or its refusal (each checked by `evolveReport`, as
 * folding checks it): a report, and the dispute it opens or the result the reports agree on.
 */
export function decideReport(t: TournamentState, command: ReportCommand, actor: Actor, ctx: { registry: EngineRegistry }): Result<ReportDecision> {
  if (command.type === 'ReportResult') {
    if (actor.role !== 'participant' || actor.participantId !== command.participantId)
      return fail('FORBIDDEN', "a participant reports its own games' results; the organizer enters them with recordResult");
    const report = { type: 'ResultReported' as const, payload: { participantId: command.participantId, result: command.result } };
    const after = evolveReport(t, report, { actor: participantById(t, command.participantId)?.registrationNo ?? null }, ctx.registry);
    if (!after.ok) return after;
    const then = afterReport(after.value, command.result.gameId);
    return ok({ events: [report, ...then.events], result: then.result });
  }
  if (actor.role !== 'organizer') return fail('FORBIDDEN', 'only the organizer settles a dispute');
  const reports = reportsOf(t, command.gameId);
  if (!reports?.disputed) return fail('NO_DISPUTE', `game ${command.gameId} has no open dispute`);
  const accepted = reports.reports[command.acceptReportOf];
  if (!accepted) return fail('NOT_IN_TOURNAMENT', `participant ${command.acceptReportOf} has not reported game ${command.gameId}`);
  const { round, board, gameId } = accepted;
  const settled: DisputeSettledPayload = { round, board, gameId, acceptedReportOf: command.acceptReportOf, reason: command.reason };
  return ok({ events: [{ type: 'DisputeSettled', payload: settled }], result: { ...accepted, reason: command.reason } });
}

/** After a report: the dispute it opens (the reports disagree) or the result they agree on. */
function afterReport(t: TournamentState, gameId: string): ReportDecision {
  const v = verdict(t, gameId);
  if (v === 'DISPUTED') {
    const first = Object.values(reportsOf(t, gameId)!.reports)[0];
    return { events: [{ type: 'ResultDisputed', payload: { round: first.round, board: first.board, gameId } }], result: null };
  }
  return { events: [], result: v?.agreed ?? null };
}

/**
 * An organizer's result for a game with an open dispute settles it (R3.11): it needs a reason,
 * and a DisputeSettled naming no report goes before it. Null when the game has no open dispute.
 */
export function settlementBy(t: TournamentState, result: GameResultPayload): Result<TournamentEvent | null> {
  if (!reportsOf(t, result.gameId)?.disputed) return ok(null);
  if (!result.reason) return fail('INVALID_INPUT', `game ${result.gameId}'s result is disputed: settling it needs a reason (R3.11, P2.7)`);
  return ok({ type: 'DisputeSettled', payload: { round: result.round, board: result.board, gameId: result.gameId, acceptedReportOf: null, reason: result.reason } });
}

/**
 * A result against the game's reports (R3.10, R3.11), or what is wrong: recorded by a participant
 * (its stored actor) only as the reports agreed; an organizer's only once a dispute is settled,
 * and the report the settlement accepted as it was reported. A refereed game's own end passes.
 */
export function resultAgainstReports(t: TournamentState, r: GameResultPayload, actor: number | null): string | null {
  const reports = reportsOf(t, r.gameId);
  if (actor !== null && actor !== ORGANIZER) {
    // P2.4: a participant withdrawing itself forfeits its own games.
    const self = t.participants.find((p) => p.registrationNo === actor)?.id;
    if (r.seats.some((s) => s.participantId === self && s.kind === 'FORFEIT_LOSS')) return null;
    const v = verdict(t, r.gameId);
    return v && v !== 'DISPUTED' && sameResult(v.agreed, r) && v.agreed.record?.gameId === r.record?.gameId ? null : "a participant's result is recorded only as both sides' reports agree (R3.10)";
  }
  if (r.source !== 'organizer' || !reports) return null;
  if (reports.disputed) return `game ${r.gameId}'s result is disputed: the organizer settles the dispute first (R3.11)`;
  const accepted = reports.settledWith ? reports.reports[reports.settledWith] : null;
  if (accepted && !(sameResult(accepted, r) && accepted.record?.gameId === r.record?.gameId)) return 'the result is not the report the settlement accepted (R3.11)';
  return null;
}

/** The game's reports once a result is recorded: closed (what follows is a correction). */
export function reportsAfterResult(t: TournamentState, gameId: string): TournamentState {
  const reports = reportsOf(t, gameId);
  return reports ? { ...t, reports: { ...t.reports, [gameId]: { ...reports, disputed: false, settledWith: undefined } } } : t;
}

/** The tournament after a report, a dispute or a settlement, or the rule the event breaks. */
export function evolveReport(
  t: TournamentState,
  e: Extract<TournamentEvent, { type: 'ResultReported' | 'ResultDisputed' | 'DisputeSettled' }>,
  stored: Pick<StoredEvent, 'actor'>,
  registry: EngineRegistry,
): Result<TournamentState> {
  switch (e.type) {
    case 'ResultReported':
      return reported(t, e.payload, stored.actor, registry);
    case 'ResultDisputed': {
      const reports = reportsOf(t, e.payload.gameId);
      if (!reports || reports.disputed || verdict(t, e.payload.gameId) !== 'DISPUTED')
        return fail(MALFORMED, `game ${e.payload.gameId}'s reports do not disagree, or its dispute is open already (R3.11)`);
      return ok({ ...t, reports: { ...t.reports, [e.payload.gameId]: { ...reports, disputed: true } } });
    }
    case 'DisputeSettled': {
      const p = e.payload;
      const reports = reportsOf(t, p.gameId);
      if (stored.actor !== ORGANIZER) return fail(MALFORMED, 'only the organizer settles a dispute (R3.11)');
      if (!reports?.disputed) return fail('NO_DISPUTE', `game ${p.gameId} has no open dispute`);
      if (!p.reason) return fail('INVALID_INPUT', 'settling a dispute needs a reason (R3.11, P2.7)');
      if (p.acceptedReportOf !== null && !reports.reports[p.acceptedReportOf]) return fail('NOT_IN_TOURNAMENT', `participant ${p.acceptedReportOf} has not reported game ${p.gameId}`);
      return ok({ ...t, reports: { ...t.reports, [p.gameId]: { ...reports, disputed: false, settledWith: p.acceptedReportOf } } });
    }
  }
}

function reported(t: TournamentState, p: ResultReportedPayload, actor: number | null, registry: EngineRegistry): Result<TournamentState> {
  const r = p.result;
  if (!t.config.playerReports) return fail('REPORTS_NOT_ALLOWED', "this tournament's organizer enters every result: participants' reports are not allowed (R3.10)");
  const at = gameAt(t, r);
  if (!at) return fail('NOT_IN_TOURNAMENT', `game ${r.gameId} is not scheduled on board ${r.board} of round ${r.round}`);
  const participant = participantById(t, p.participantId);
  if (!participant || !at.game.seats.includes(p.participantId)) return fail('NOT_YOUR_BOARD', `game ${r.gameId} is not one of ${participant?.name ?? 'this participant'}'s games`);
  if (actor !== null && actor !== participant.registrationNo) return fail(MALFORMED, `the report of ${participant.name} is stored as another's (R3.10)`);
  if (at.board.results[r.gameId]) return fail('RESULT_ALREADY_RECORDED', `game ${r.gameId} has its result already; the organizer corrects it`);
  const reports = reportsOf(t, r.gameId) ?? { reports: {}, disputed: false };
  if (reports.disputed) return fail('DISPUTE_OPEN', `game ${r.gameId}'s reports disagree: the organizer settles the dispute`);
  if (r.source !== 'organizer' || r.head !== null) return fail('INVALID_RESULT', 'a report is an entered result');
  if (r.seats.some((s) => s.kind !== 'PLAYED')) return fail('INVALID_RESULT', 'a report is of a game played: forfeits are entered by the organizer (R3.2)');
  const problem = resultShapeProblem(t, at.game.seats, r) ?? impossibleResult(registry.get(t.config.kind), t.config, r);
  if (problem) return fail('INVALID_RESULT', problem);
  return ok({ ...t, reports: { ...t.reports, [r.gameId]: { ...reports, reports: { ...reports.reports, [p.participantId]: r }, settledWith: undefined } } });
}
