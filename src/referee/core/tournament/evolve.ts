import { fail, ok, type Result } from '../../../engines/kit/index.js';
import { canonicalJson } from '../canonical.js';
import { MALFORMED, type StoredEvent } from '../stream.js';
import { bracketStands, matchesIn } from './brackets.js';
import type { TournamentEvolveContext } from './commands.js';
import { isCompleteConfig } from './config.js';
import type { BoardPlan, GameResultPayload, TournamentEvent } from './events.js';
import { decideBoard, finalRanking, pairRound, type Pairing as RoundPairing, totalRoundsFor } from './formats.js';
import { boardReplaced, roundComplete } from './history.js';
import { type LotDrawn, type Lots, lotsCommitment, SeededLots } from './lots.js';
import { resultAgainstReports, evolveReport, reportsAfterResult } from './reports.js';
import { impossibleResult, resultShapeProblem } from './results.js';
import { evolveSchedule, foundSchedule, pairedTooEarly, unfinishedRound } from './schedule.js';
import { type BoardState, currentRound, participantById, type RoundState, type TournamentState, withdrawnBefore } from './state.js';

/**
 * A tournament's evolve (as a game's): the one transition both deciding and folding go through.
 * Folding with `recompute` recomputes every pairing, table, bracket step and the final ranking
 * and refuses a stream whose recorded ones differ (V10.3).
 */

const broken = (message: string): Result<never> => fail(MALFORMED, message);

export function found(tournamentId: string, first: TournamentEvent, ctx: TournamentEvolveContext): Result<TournamentState> {
  if (first.type !== 'TournamentCreated') return broken(`the first event must be TournamentCreated, found ${first.type}`);
  const { config, seedCommitment } = first.payload;
  if (!isCompleteConfig(config, ctx.registry)) return broken('the configuration is not in its complete, validated form');
  if (ctx.seed !== null && lotsCommitment(ctx.seed) !== seedCommitment) return broken('the seed does not match the published commitment (L9.1)');
  return ok({
    tournamentId,
    config,
    seedCommitment,
    revealedSeed: null,
    participants: [],
    settings: {},
    rounds: [],
    totalRounds: config.rounds,
    lots: [],
    finished: false,
    ranking: null,
    ...foundSchedule(config.schedule),
  });
}

/** The tournament after one event, or the rule the event breaks. */
export function evolve(t: TournamentState, e: TournamentEvent, stored: Pick<StoredEvent, 'type' | 'actor' | 'createdAt'>, ctx: TournamentEvolveContext): Result<TournamentState> {
  try {
    return evolveChecked(t, e, stored, ctx);
  } catch (err) {
    if (err instanceof MissingLot) return broken(err.message);
    throw err;
  }
}

function evolveChecked(t: TournamentState, e: TournamentEvent, stored: Pick<StoredEvent, 'type' | 'actor' | 'createdAt'>, ctx: TournamentEvolveContext): Result<TournamentState> {
  if (t.finished) return broken('no event may follow TournamentFinished');
  switch (e.type) {
    case 'TournamentCreated':
      return broken('TournamentCreated may only start the stream');
    case 'ParticipantRegistered': {
      const { participantId, ...rest } = e.payload;
      const p = e.payload;
      if (participantById(t, p.participantId)) return broken(`participant ${p.participantId} is registered twice`);
      if (p.registrationNo !== t.participants.length + 1) return broken(`the next registration number is ${t.participants.length + 1} (P2.1)`);
      if (p.entryRound !== t.rounds.length + 1) return broken(`a participant registered now enters in round ${t.rounds.length + 1}`);
      return ok({
        ...t,
        participants: [
          ...t.participants,
          // The player, external id and requested byes, as far as given.
          { id: participantId, withdrawnAfterRound: null, ...rest },
        ],
      });
    }
    case 'ParticipantWithdrawn': {
      const p = participantById(t, e.payload.participantId);
      if (!p) return broken('no such participant');
      if (p.withdrawnAfterRound !== null) return broken('the participant has already withdrawn');
      if (e.payload.afterRound !== t.rounds.length) return broken(`a withdrawal now takes effect after round ${t.rounds.length} (P2.3)`);
      return ok({ ...t, participants: t.participants.map((x) => (x.id === p.id ? { ...x, withdrawnAfterRound: e.payload.afterRound } : x)) });
    }
    case 'RoundSettingsSet': {
      if (e.payload.round !== t.rounds.length + 1) return broken(`settings are for the next round to pair (${t.rounds.length + 1})`);
      return ok({ ...t, settings: { ...t.settings, [e.payload.round]: e.payload } });
    }
    case 'LotsDrawn': {
      if (ctx.seed !== null && !lotMatchesSeed(e.payload, ctx.seed, t.tournamentId)) return broken(`the lot ${e.payload.label} is not the one the seed gives (L9.2)`);
      return ok({ ...t, lots: [...t.lots, e.payload] });
    }
    case 'RoundPaired': {
      const p = e.payload;
      if (p.round !== t.rounds.length + 1) return broken(`expected round ${t.rounds.length + 1}`);
      const previous = currentRound(t);
      if (previous && !roundComplete(t, previous) && !t.config.schedule?.scheduleAll) return broken(`round ${previous.round} was paired before round ${previous.round - 1} was finished`);
      if (t.totalRounds !== null && p.round > t.totalRounds) return broken(`the tournament has ${t.totalRounds} rounds`);
      const early = pairedTooEarly(t, p.round, stored);
      if (early) return broken(early);
      if (ctx.recompute) {
        const again = pairRound(t, recordedLots(t));
        if (!again.ok) return broken(`round ${p.round} cannot be paired again: ${again.error.message}`);
        const mismatch = samePairing(again.value, p);
        if (mismatch) return broken(`round ${p.round}: ${mismatch}`);
      }
      const round: RoundState = {
        round: p.round,
        boards: p.boards.map((b) => boardState(t, p.round, b)),
        byes: p.byes,
        rest: p.rest,
        warnings: p.warnings,
        absent: t.settings[p.round]?.absent ?? [],
        requestedByes: t.settings[p.round]?.requestedByes ?? [],
        ...(p.order ? { order: p.order } : {}),
      };
      const totalRounds = t.totalRounds ?? totalRoundsFor(t, p.order ?? []);
      return ok({ ...t, rounds: [...t.rounds, round], totalRounds });
    }
    case 'GamesScheduled': {
      const found = boardAt(t, e.payload.round, e.payload.board);
      if (!found) return broken('no such board');
      const decision = decideBoard(t, found.board, recordedLots(t));
      if (!decision.ok) return broken(decision.error.message);
      if (decision.value.kind !== 'NEXT_GAME') return broken('a game was scheduled for a match that needs none');
      const seats = e.payload.games.map((g) => g.seats);
      if (seats.length !== 1 || canonicalJson(seats[0]) !== canonicalJson(decision.value.seats)) return broken(`the match's next game seats ${decision.value.seats.join(' v ')} (K6.6, K6.7)`);
      return ok(replaceBoard(t, found.round, { ...found.board, games: [...found.board.games, ...e.payload.games] }));
    }
    case 'ResultRecorded':
    case 'ResultCorrected':
      return recorded(t, e.payload, e.type === 'ResultCorrected', ctx, stored.actor);
    case 'ResultReported':
    case 'ResultDisputed':
    case 'DisputeSettled':
      return evolveReport(t, e, stored, ctx.registry);
    case 'TournamentFinished': {
      if (lotsCommitment(e.payload.seed) !== t.seedCommitment) return broken('the revealed seed does not match the published commitment (L9.1)');
      if (ctx.seed !== null && ctx.seed !== e.payload.seed) return broken("the revealed seed is not the tournament's seed");
      for (const lot of t.lots) if (!lotMatchesSeed(lot, e.payload.seed, t.tournamentId)) return broken(`the lot ${lot.label} is not the one the revealed seed gives (L9.2)`);
      const open = unfinishedRound(t);
      if (open) return broken(`the tournament finished while round ${open.round} was being played`);
      if (ctx.recompute) {
        const ranking = finalRanking(t, recordedLots(t));
        if (canonicalJson(ranking) !== canonicalJson(e.payload.ranking)) return broken('the final ranking is not the one the standings give (V10.3 step 4)');
      }
      return ok({ ...t, finished: true, revealedSeed: e.payload.seed, ranking: e.payload.ranking });
    }
    case 'RegistrationOpened':
    case 'RegistrationClosed':
    case 'CheckInOpened':
    case 'ParticipantCheckedIn':
    case 'CheckInClosed':
    case 'RoundScheduled':
      return evolveSchedule(t, e, stored);
  }
}

function boardState(t: TournamentState, round: number, b: BoardPlan): BoardState {
  const board: BoardState = { ...b, results: {} };
  if (!matchesIn(t, round) || b.games.length > 0) return board;
  // K6.5: a match facing an empty slot is over before it starts; K6.8: so is a walkover. Whoever
  // withdrew forfeits it, so from a bye or a match between two who withdrew nobody goes through.
  const through = b.seats.filter((s) => s !== b.walkover && !withdrawnBefore(t, s, round));
  return { ...board, winner: through.length === 1 ? through[0] : null };
}

export function boardAt(t: TournamentState, round: number, board: number): { round: RoundState; board: BoardState } | null {
  const r = t.rounds[round - 1];
  const b = r?.boards.find((x) => x.board === board);
  return r && b ? { round: r, board: b } : null;
}

function replaceBoard(t: TournamentState, round: RoundState, board: BoardState): TournamentState {
  const next: RoundState = { ...round, boards: round.boards.map((b) => (b.board === board.board ? board : b)) };
  const old = round.boards.find((b) => b.board === board.board);
  if (old) boardReplaced(round, next, old, board);
  return { ...t, rounds: t.rounds.map((r) => (r.round === round.round ? next : r)) };
}

function recorded(t: TournamentState, result: GameResultPayload, correction: boolean, ctx: TournamentEvolveContext, actor: number | null): Result<TournamentState> {
  const found = boardAt(t, result.round, result.board);
  if (!found) return fail('NOT_IN_TOURNAMENT', `round ${result.round} has no board ${result.board}`);
  const { round, board } = found;
  const game = board.games.find((g) => g.gameId === result.gameId);
  if (!game) return fail('NOT_IN_TOURNAMENT', `game ${result.gameId} is not scheduled on board ${result.board} of round ${result.round}`);
  const earlier = board.results[result.gameId];
  if (!correction && earlier) return fail('RESULT_ALREADY_RECORDED', `game ${result.gameId} already has its result; correct it with a reason instead`);
  if (correction && !earlier) return fail('NO_RESULT_TO_CORRECT', `game ${result.gameId} has no result to correct`);
  if (correction && !result.reason) return fail('INVALID_INPUT', 'a correction needs a reason (P2.7)');
  if (correction && bracketStands(t, round.round)) return fail('ROUND_ALREADY_PAIRED', 'the next knockout round is paired: its bracket stands (R3.7)');
  const shape = resultShapeProblem(t, game.seats, result) ?? impossibleResult(ctx.registry.get(t.config.kind), t.config, result);
  if (shape) return fail('INVALID_RESULT', shape);
  const unreported = resultAgainstReports(t, result, actor);
  if (unreported) return broken(unreported);
  t = reportsAfterResult(t, result.gameId);
  let next: BoardState = { ...board, results: { ...board.results, [result.gameId]: result }, ...(correction ? { corrections: (board.corrections ?? 0) + 1 } : {}) };
  if (matchesIn(t, round.round)) {
    const decision = decideBoard(t, next, recordedLots(t));
    if (!decision.ok) return broken(decision.error.message);
    next = decision.value.kind === 'DECIDED' ? { ...next, winner: decision.value.winner } : { ...next, winner: undefined };
  }
  return ok(replaceBoard(t, round, next));
}

/** Lots as recorded in the stream: pairing and standings recomputed offline take the recorded draws (checked against the seed once known). */
export function recordedLots(t: TournamentState): Lots {
  const find = (label: string) => t.lots.find((l) => l.label === label);
  return {
    uniform(label: string, k: number): number {
      const lot = find(label);
      if (!lot || lot.k !== k || typeof lot.result !== 'number') throw new MissingLot(label);
      return lot.result;
    },
    shuffle<T>(label: string, items: readonly T[]): T[] {
      const lot = find(label);
      if (!lot || !Array.isArray(lot.result) || !lot.input) throw new MissingLot(label);
      const keys = items.map(lotKey);
      if (canonicalJson(keys) !== canonicalJson(lot.input)) throw new MissingLot(label);
      return (lot.result as (string | number)[]).map((k) => items[keys.indexOf(k)]);
    },
  };
}

/** Lots name participants by id, standings' by registration number: both are recorded as given. */
export const lotKey = (item: unknown): string | number => (typeof item === 'object' && item !== null && 'id' in item ? (item as { id: string }).id : (item as string | number));

class MissingLot extends Error {
  constructor(label: string) {
    super(`the lot ${label} is not recorded before the event that needs it (L9.5)`);
  }
}

function lotMatchesSeed(lot: LotDrawn, seed: string, tournamentId: string): boolean {
  const lots = new SeededLots(seed, tournamentId);
  if (lot.input) return canonicalJson(lots.shuffle(lot.label, lot.input)) === canonicalJson(lot.result);
  return lot.k !== undefined && lots.uniform(lot.label, lot.k) === lot.result;
}

/** What differs between a recorded pairing and the one recomputed, or null. */
function samePairing(again: RoundPairing, p: { boards: BoardPlan[]; byes: string[]; rest: string | null; order?: string[] }): string | null {
  const seatsOf = (boards: { seats: string[]; walkover: string | null }[]) => canonicalJson(boards.map((b) => [b.seats, b.walkover]));
  if (seatsOf(again.boards) !== seatsOf(p.boards)) return 'the boards and seats are not the ones the pairing rules give';
  if (canonicalJson(again.byes) !== canonicalJson(p.byes)) return 'the byes are not the ones the pairing rules give';
  if (again.rest !== p.rest) return 'the resting participant is not the one the schedule gives (RR4.4)';
  if (canonicalJson(again.order ?? null) !== canonicalJson(p.order ?? null)) return 'the pairing numbers or seeds are not the ones the lots give';
  const gameSeats = p.boards.map((b) => b.games.map((g) => g.seats));
  if (canonicalJson(gameSeats) !== canonicalJson(again.boards.map((b) => b.games))) return "the games' seats are not the ones the rules give (K6.6)";
  return null;
}
