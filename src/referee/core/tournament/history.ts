import { matchesIn } from './brackets.js';
import type { TournamentConfig } from './config.js';
import type { GameResultPayload } from './events.js';
import { type ScoredSeat, scoreTable } from './tables.js';
import { add, type Rational, ZERO } from './rational.js';
import { type BoardState, pointValues, rational, type RoundState, type TournamentState } from './state.js';
import { type History, type RoundEntry, roundEntry } from './types.js';

/**
 * The per-round entries (R3.1) that pairing, seating and standings read, derived from the
 * folded events: one entry per participant per round, ABSENT before entry and after withdrawal.
 */

/** Whether every game of a board of round `round` has its result (a board without games is complete at once). */
export function boardComplete(t: TournamentState, board: BoardState, round: number): boolean {
  if (matchesIn(t, round)) return board.winner !== undefined;
  return board.games.every((g) => board.results[g.gameId] !== undefined);
}

export const roundComplete = (t: TournamentState, round: RoundState): boolean => {
  const counts = countsOf(round);
  return matchesIn(t, round.round) ? counts.unwon === 0 : counts.unrecorded === 0;
};

/** The games of a round that have no result yet, in board order. */
export const unrecordedGames = (round: RoundState): readonly string[] => listsOf(round).unrecorded;

/** The results recorded in a round, by game. */
export const resultsIn = (round: RoundState): ReadonlyMap<string, GameResultPayload> => listsOf(round).results;

/** How many of a round's games have no result, and how many of its boards no winner. */
interface RoundCounts {
  unrecorded: number;
  unwon: number;
}

/**
 * What a round's boards say, read once per round state: a round is replaced, never changed in
 * place, so the rounds a large event finished are not searched again on every read and command
 * (their facts stay remembered while their state lives). A result replaces one board: the new
 * round's counts are carried from the round before (boardReplaced), not counted again over every board.
 */
const roundCounts = new WeakMap<RoundState, RoundCounts>();
const roundLists = new WeakMap<RoundState, { unrecorded: string[]; results: Map<string, GameResultPayload> }>();

const boardCounts = (b: BoardState): RoundCounts => ({ unrecorded: b.games.filter((g) => b.results[g.gameId] === undefined).length, unwon: b.winner === undefined ? 1 : 0 });

function countsOf(round: RoundState): RoundCounts {
  let counts = roundCounts.get(round);
  if (counts) return counts;
  counts = { unrecorded: 0, unwon: 0 };
  for (const b of round.boards) {
    const c = boardCounts(b);
    counts.unrecorded += c.unrecorded;
    counts.unwon += c.unwon;
  }
  roundCounts.set(round, counts);
  return counts;
}

/** `after` is `before` with board `old` replaced by `next`: its counts, from `before`'s when they are known. */
export function boardReplaced(before: RoundState, after: RoundState, old: BoardState, next: BoardState): void {
  const counts = roundCounts.get(before);
  if (!counts) return;
  const [o, n] = [boardCounts(old), boardCounts(next)];
  roundCounts.set(after, { unrecorded: counts.unrecorded - o.unrecorded + n.unrecorded, unwon: counts.unwon - o.unwon + n.unwon });
}

function listsOf(round: RoundState) {
  let lists = roundLists.get(round);
  if (lists) return lists;
  const results = new Map<string, GameResultPayload>();
  const unrecorded: string[] = [];
  for (const b of round.boards) {
    for (const g of b.games) if (b.results[g.gameId] === undefined) unrecorded.push(g.gameId);
    for (const r of Object.values(b.results)) results.set(r.gameId, r);
  }
  lists = { unrecorded, results };
  roundLists.set(round, lists);
  return lists;
}

/** Rounds whose every board has its result (TB8.11: standings count only these). */
export function completedRounds(t: TournamentState): number {
  let n = 0;
  for (const round of t.rounds) {
    if (!roundComplete(t, round)) break;
    n = round.round;
  }
  return n;
}

/** Entries of rounds 1..n for every participant. */
export function historyOf(t: TournamentState, n: number): Map<string, RoundEntry[]> {
  const history = new Map<string, RoundEntry[]>(t.participants.map((p) => [p.id, []]));
  for (const round of t.rounds.slice(0, n)) {
    const entries = roundEntries(t, round);
    for (const p of t.participants) history.get(p.id)!.push(entries.get(p.id) ?? absentEntry(t, p.id, round.round));
  }
  return history;
}

/** TP per participant over its entries. */
export function pointsOf(history: History): Map<string, Rational> {
  const tp = new Map<string, Rational>();
  for (const [id, entries] of history)
    tp.set(
      id,
      entries.reduce((s, e) => add(s, e.tp), ZERO),
    );
  return tp;
}

function absentEntry(t: TournamentState, id: string, round: number): RoundEntry {
  const p = t.participants.find((x) => x.id === id)!;
  // P2.2: rounds before a late entry earn the configured late-entry points.
  return roundEntry(round, 'ABSENT', round < p.entryRound ? rational(t.config.lateEntryPoints) : ZERO);
}

function roundEntries(t: TournamentState, round: RoundState): Map<string, RoundEntry> {
  const out = new Map<string, RoundEntry>();
  const r = round.round;
  const twoSeat = t.config.format !== 'tables';
  for (const id of round.byes) out.set(id, roundEntry(r, 'PAB', rational(twoSeat ? t.config.byePoints : t.config.tableByePoints)));
  if (round.rest) out.set(round.rest, roundEntry(r, 'REST', ZERO));
  for (const id of round.absent) out.set(id, roundEntry(r, 'ABSENT', ZERO));
  for (const id of round.requestedByes) out.set(id, roundEntry(r, 'REQUESTED_BYE', rational(t.config.requestedByePoints)));
  for (const board of round.boards) {
    if (board.games.length === 0) {
      // A knockout bye (K6.5) or a walkover against a withdrawn participant (RR4.6): a forfeit win
      // for its opponent (P2.5), and for the one who withdrew the ABSENT of P2.3 (left to absentEntry).
      const opponent = board.walkover ? board.seats.find((id) => id !== board.walkover) : undefined;
      if (opponent) out.set(opponent, roundEntry(r, 'FORFEIT_WIN', pointValues(t.config).win, { opponents: [board.walkover!] }));
      continue;
    }
    // The last scheduled game that has a result stands for the board (one game outside knockout).
    const results = board.games.map((g) => board.results[g.gameId]).filter((x): x is GameResultPayload => x !== undefined);
    const result = results[results.length - 1];
    if (!result) continue;
    for (const e of twoSeat ? twoSeatEntries(t, r, result) : scoreTableResult(t.config, r, result)) out.set(e.id, e.entry);
  }
  return out;
}

function twoSeatEntries(t: TournamentState, round: number, result: GameResultPayload): { id: string; entry: RoundEntry }[] {
  const points = pointValues(t.config);
  const drawn = result.ranking.length === 1;
  return result.seats.map((s, seat) => {
    const opponents = result.seats.filter((_, i) => i !== seat).map((o) => o.participantId);
    switch (s.kind) {
      case 'PLAYED': {
        const outcome = drawn ? 'draw' : result.ranking[0][0] === seat ? 'win' : 'loss';
        const tp = outcome === 'win' ? points.win : outcome === 'draw' ? points.draw : points.loss;
        return { id: s.participantId, entry: roundEntry(round, 'PLAYED', tp, { opponents, seat, result: outcome, gamePoints: s.gamePoints === null ? ZERO : rational(s.gamePoints) }) };
      }
      case 'FORFEIT_WIN':
        return { id: s.participantId, entry: roundEntry(round, 'FORFEIT_WIN', points.win, { opponents }) };
      default:
        return { id: s.participantId, entry: roundEntry(round, s.kind, points.loss, { opponents }) };
    }
  });
}

/** TA7.6-TA7.7, R3.5: a table's result as each seat's entry. */
export function scoreTableResult(config: TournamentConfig, round: number, result: GameResultPayload): ScoredSeat[] {
  const group = new Map<number, number>();
  result.ranking.forEach((seats, i) => {
    for (const s of seats) group.set(s, i);
  });
  const scored = scoreTable({
    round,
    table: { seats: result.seats.map((s) => s.participantId) },
    // The recorded ranking is the game's order (pips, then its own tie steps): it breaks equal pips.
    outcomes: result.seats.map((s, seat) => (s.kind === 'PLAYED' ? { present: true, pips: rational(s.gamePoints ?? '0').n, tieKeys: [group.get(seat) ?? 0] } : { present: s.kind === 'FORFEIT_WIN' })),
    minSeats: config.minSeats,
    placementPoints: config.placementPoints,
  });
  if (!scored.ok) throw new RangeError(scored.error.message);
  return scored.value;
}
