import { fail, ok, type Outcome, type Result } from '../../../engines/kit/index.js';
import { canonicalJson } from '../canonical.js';
import type { DraftEvent } from '../stream.js';
import { isCleanText } from '../text.js';
import { forfeitResult } from './registration.js';
import { decodeTournamentEvent, type GameResultPayload, type RoundSettings, type ScheduledGame, type SeatResultKind } from './events.js';
import { format, parse } from './rational.js';
import { resultFromOutcome } from './results.js';
import type { TournamentState } from './state.js';

/**
 * What organizers and participants enter, checked and turned into what the tournament's
 * commands carry: a result for a scheduled game (R3.1, R3.4, R3.5), a round's settings (S5.1,
 * P2.6, TA7.10), a reason, a rating (T1.2). And the other way: the outcome an organizer's result
 * gives the scheduled game it closes.
 */

const MAX_REASON = 500;
const MAX_RATING = 10_000;

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

/** A record imported as its own game: where it ends, and the outcome it reached. */
export interface RecordedGame {
  gameId: string;
  seq: number;
  hash: string;
  outcome: Outcome | null;
}

/** A round's settings as entered: any part may be left out. */
export type RoundSettingsInput = Partial<Omit<RoundSettings, 'round'>> & { round?: number | null };

/** A reason (a withdrawal's, a result's, a correction's, P2.7): none, or a clean text of at most 500 characters. */
export function checkReason(reason: string | null | undefined): Result<string | null> {
  if (reason === undefined || reason === null || reason === '') return ok(null);
  if (typeof reason !== 'string' || reason.length > MAX_REASON || !isCleanText(reason))
    return fail('INVALID_INPUT', `a reason is a text of at most ${MAX_REASON} characters, without control characters`);
  return ok(reason);
}

/** A participant's rating (T1.2): a whole number from 0 to 10000, 0 when unrated. */
export function checkRating(rating: number | null | undefined): Result<number> {
  const value = rating ?? 0;
  if (!Number.isInteger(value) || value < 0 || value > MAX_RATING) return fail('INVALID_INPUT', `rating: a whole number from 0 to ${MAX_RATING}`);
  return ok(value);
}

/** The settings an organizer enters for a round (the next one to pair, unless named): participants by id, pairs of two different ones. */
export function roundSettingsOf(t: TournamentState, input: RoundSettingsInput): Result<RoundSettings> {
  const list = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
  const pair = (p: unknown): p is [string, string] => list(p) && p.length === 2 && p[0] !== p[1];
  const lists = { absent: input.absent ?? [], requestedByes: input.requestedByes ?? [] };
  for (const [what, v] of Object.entries(lists)) if (!list(v)) return fail('INVALID_INPUT', `${what}: a list of participant ids`);
  if (input.seeds && !list(input.seeds)) return fail('INVALID_INPUT', 'seeds: a list of participant ids');
  const tables = input.manualTables ?? [];
  if (!tables.every(list)) return fail('INVALID_INPUT', 'a manual table: a list of participant ids');
  const forbidden = input.forbiddenPairs ?? [];
  if (!Array.isArray(forbidden) || !forbidden.every(pair)) return fail('INVALID_INPUT', 'forbiddenPairs: pairs of two different participant ids');
  const pairings = input.manualPairings ?? [];
  for (const p of pairings) {
    if (!p || typeof p.a !== 'string' || typeof p.b !== 'string' || p.a === p.b) return fail('INVALID_INPUT', 'a manual pairing names two different participants (a, b)');
    if (p.seats && !pair(p.seats)) return fail('INVALID_INPUT', 'seats: pairs of two different participant ids');
  }
  return ok({
    round: input.round ?? t.rounds.length + 1,
    manualPairings: pairings.map((p) => ({ a: p.a, b: p.b, seats: p.seats ?? null })),
    manualBye: input.manualBye ?? null,
    manualTables: tables,
    absent: lists.absent,
    requestedByes: lists.requestedByes,
    forbiddenPairs: forbidden,
    seeds: input.seeds ?? null,
  });
}

/** The scheduled game an entry is for: the one named, else the board's game still waiting for its result (else its last). */
export function enteredGame(t: TournamentState, input: Pick<EnteredResult, 'round' | 'board' | 'gameId'>): Result<ScheduledGame> {
  const board = t.rounds[input.round - 1]?.boards.find((b) => b.board === input.board);
  if (!board) return fail('NOT_IN_TOURNAMENT', `round ${input.round} has no board ${input.board}`);
  const game = input.gameId ? board.games.find((g) => g.gameId === input.gameId) : (board.games.find((g) => !board.results[g.gameId]) ?? board.games[board.games.length - 1]);
  if (game) return ok(game);
  return fail('NOT_IN_TOURNAMENT', input.gameId ? `game ${input.gameId} is not on board ${input.board} of round ${input.round}` : `board ${input.board} has no game (a bye or a walkover)`);
}

/**
 * The result an organizer's entry means for `game`. With a record (imported as its own game) the
 * result is the record's: its outcome and game points; what the organizer also typed (an
 * outcome, game points, who was present) must say the same (RECORD_DISAGREES), and may be left out.
 */
export function enteredResult(t: TournamentState, input: EnteredResult, game: ScheduledGame, record: RecordedGame | null): Result<GameResultPayload> {
  const reason = checkReason(input.reason);
  if (!reason.ok) return reason;
  const result: GameResultPayload = { round: input.round, board: input.board, gameId: game.gameId, source: 'organizer', seats: [], ranking: [], head: null, record: null, reason: reason.value };
  if (!record) {
    const entered = enteredSeats(t, game, input);
    return entered.ok ? ok({ ...result, ...entered.value }) : entered;
  }
  if (!record.outcome) return fail('RECORD_DISAGREES', 'the record does not reach the end of the game');
  const fromRecord = resultFromOutcome(t.config, { round: input.round, board: input.board, game }, record.outcome, { seq: 0, hash: '' });
  const typed = typedDisagreement(input, fromRecord);
  if (!typed.ok) return typed;
  if (typed.value) return fail('RECORD_DISAGREES', `the record says: ${record.outcome.summary}; ${typed.value}`);
  return ok({ ...result, record: { gameId: record.gameId, seq: record.seq, hash: record.hash }, seats: fromRecord.seats, ranking: fromRecord.ranking });
}

const RANKING_OF: Partial<Record<NonNullable<EnteredResult['outcome']>, number[][]>> = { WIN_SEAT0: [[0], [1]], WIN_SEAT1: [[1], [0]], DRAW: [[0, 1]] };

/** What the organizer typed beside a record that the record does not say, if anything (game points not numbers are INVALID_INPUT). */
function typedDisagreement(input: EnteredResult, fromRecord: Pick<GameResultPayload, 'seats' | 'ranking'>): Result<string | null> {
  if (input.outcome !== undefined && input.outcome !== null) {
    const ranking = RANKING_OF[input.outcome];
    if (!ranking) return ok(`a record is a game played, not ${input.outcome}`);
    if (canonicalJson(ranking) !== canonicalJson(fromRecord.ranking)) return ok(`not ${input.outcome}`);
  }
  if (input.present?.some((p) => !p)) return ok('every seat played it');
  for (const [i, v] of (input.gamePoints ?? []).entries()) {
    if (v === undefined || v === null) continue;
    const typed = typedPoints(input, i);
    if (!typed.ok) return typed;
    if (typed.value !== fromRecord.seats[i]?.gamePoints) return ok(`seat ${i}'s game points are ${fromRecord.seats[i]?.gamePoints ?? 'none'}, not ${typed.value}`);
  }
  return ok(null);
}

/** Seat `i`'s game points as typed (R3.4): a number 0 or more, written exactly. */
function typedPoints(input: EnteredResult, i: number): Result<string> {
  const v = input.gamePoints?.[i];
  const r = v === undefined || v === null ? null : parse(v);
  if (!r || r.n < 0) return fail('INVALID_INPUT', `gamePoints[${i}]: the game points of seat ${i} (R3.4), a number 0 or more`);
  return ok(format(r));
}

/** The seats' kinds and game points, and their ranking, that an entry gives (R3.1, R3.4; tables: R3.5). */
function enteredSeats(t: TournamentState, game: ScheduledGame, input: EnteredResult): Result<Pick<GameResultPayload, 'seats' | 'ranking'>> {
  const points = (i: number) => typedPoints(input, i);
  const seat = (participantId: string, kind: SeatResultKind, gamePoints: string | null) => ({ participantId, kind, gamePoints });
  if (t.config.format !== 'tables') {
    const [a, b] = game.seats;
    switch (input.outcome) {
      case 'WIN_SEAT0':
      case 'WIN_SEAT1':
      case 'DRAW': {
        const [pa, pb] = [points(0), points(1)];
        if (!pa.ok) return pa;
        if (!pb.ok) return pb;
        const ranking = input.outcome === 'DRAW' ? [[0, 1]] : input.outcome === 'WIN_SEAT0' ? [[0], [1]] : [[1], [0]];
        return ok({ seats: [seat(a, 'PLAYED', pa.value), seat(b, 'PLAYED', pb.value)], ranking });
      }
      case 'FORFEIT_WIN_SEAT0':
      case 'FORFEIT_WIN_SEAT1': {
        const { seats, ranking } = forfeitResult(t, input.round, input.board, game, input.outcome === 'FORFEIT_WIN_SEAT0' ? b : a, '');
        return ok({ seats, ranking });
      }
      case 'DOUBLE_FORFEIT':
        return ok({ seats: [seat(a, 'DOUBLE_FORFEIT', null), seat(b, 'DOUBLE_FORFEIT', null)], ranking: [] });
      default:
        return fail('INVALID_INPUT', 'outcome: WIN_SEAT0, WIN_SEAT1, DRAW, FORFEIT_WIN_SEAT0, FORFEIT_WIN_SEAT1 or DOUBLE_FORFEIT (or a record)');
    }
  }
  const present = input.present ?? game.seats.map(() => true);
  if (!Array.isArray(present) || present.length !== game.seats.length) return fail('INVALID_INPUT', `present: one flag per seat (${game.seats.length})`);
  if (present.filter(Boolean).length < t.config.minSeats) {
    // R3.5: too few to play: the present share the top places as forfeit wins.
    return ok({ seats: game.seats.map((id, i) => seat(id, present[i] ? 'FORFEIT_WIN' : 'FORFEIT_LOSS', null)), ranking: [] });
  }
  const seats: GameResultPayload['seats'] = [];
  for (const [i, id] of game.seats.entries()) {
    const p = present[i] ? points(i) : null;
    if (p && !p.ok) return p;
    seats.push(p ? seat(id, 'PLAYED', p.value) : seat(id, 'FORFEIT_LOSS', null));
  }
  const pips = seats.map((s) => (s.gamePoints === null ? null : parse(s.gamePoints)!.n));
  const order = [...new Set(pips.filter((p): p is number => p !== null))].sort((x, y) => (t.config.gamePointsOrder === 'lower' ? x - y : y - x));
  return ok({ seats, ranking: order.map((p) => pips.flatMap((q, i) => (q === p ? [i] : []))) });
}

/** The outcome an organizer's result (an over-the-board game, a forfeit) gives the scheduled game it closes, and why. */
export function adjudicationOf(tournamentId: string, r: GameResultPayload): { outcome: Outcome; reason: string } {
  const points = r.seats.map((s) => (s.gamePoints === null ? 0 : Number(s.gamePoints)));
  const winners = r.ranking.length > 0 ? r.ranking[0] : r.seats.flatMap((s, i) => (s.kind === 'FORFEIT_WIN' ? [i] : []));
  const summary = r.reason ?? (r.seats.some((s) => s.kind !== 'PLAYED') ? 'forfeit' : 'result entered by the organizer');
  return {
    outcome: { winners, points, summary: `${summary} (tournament ${tournamentId})` },
    reason: `tournament ${tournamentId} round ${r.round} board ${r.board}: ${summary}`,
  };
}

/** The results a decision records (a withdrawal's forfeits, say), decoded from its drafts. */
export function resultsRecorded(drafts: readonly DraftEvent[]): GameResultPayload[] {
  return drafts.flatMap((d) => {
    const e = decodeTournamentEvent(d);
    return e.ok && e.value.type === 'ResultRecorded' ? [e.value.payload] : [];
  });
}
