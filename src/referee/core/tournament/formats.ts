import { fail, ok, type Result } from '../../../engines/kit/index.js';
import type { GameResultPayload } from './events.js';
import { completedRounds, historyOf, pointsOf, roundComplete } from './history.js';
import { type DecidedMatch, decideMatch, knockoutPlacings, knockoutRoundCount, knockoutSeeds, koTieLabel, type MatchGame, type MatchState, openMatch, parseTieRule } from './knockout.js';
import type { Lots } from './lots.js';
import { rat, type Rational } from './rational.js';
import { roundRobinNumbers, roundRobinRound, roundRobinRoundCount } from './round-robin.js';
import { type Standings, standings } from './standings.js';
import { type BoardState, pointValues, rational, type TournamentState, withdrawnBefore } from './state.js';
import { pairSwiss } from './swiss.js';
import { boardMatch, isBracket, knockoutStageMatches, matchBoards } from './brackets.js';
import { groupsKnockoutBoards, groupsKnockoutPlacings, groupsKnockoutRounds } from './group-stage.js';
import { doubleEliminationBoards, doubleEliminationLabel, doubleEliminationOver, doubleEliminationPlacingsOf, doubleEliminationRounds } from './double-elimination.js';
import { seatTables } from './tables.js';

/**
 * The formats as the tournament aggregate drives them: one function pairs the next round of any
 * format from the folded state, one decides a knockout match, one gives the final ranking. The
 * service and the offline verifier both call these, so what is published is what is recomputed.
 */

export interface Pairing {
  boards: { seats: string[]; games: string[][]; manual: boolean; walkover: string | null }[];
  byes: string[];
  rest: string | null;
  warnings: string[];
  /** Round 1 of a round-robin (pairing numbers) or a knockout (seeds). */
  order?: string[];
}

/** The next round's boards, byes and rest (RR4, S5, K6, TA7), from the state before it. */
export function pairRound(t: TournamentState, lots: Lots): Result<Pairing> {
  const round = t.rounds.length + 1;
  const history = historyOf(t, round - 1);
  const tp = pointsOf(history);
  const settings = t.settings[round];
  const forbidden = Object.values(t.settings)
    .filter((s) => s.round <= round)
    .flatMap((s) => s.forbiddenPairs);
  switch (t.config.format) {
    case 'swiss': {
      const paired = pairSwiss({
        round,
        participants: t.participants,
        history,
        tp,
        forbidden,
        manual: { pairings: (settings?.manualPairings ?? []).map((p) => ({ a: p.a, b: p.b, ...(p.seats ? { seats: p.seats } : {}) })), bye: settings?.manualBye ?? null },
        absent: settings?.absent ?? [],
        requestedByes: settings?.requestedByes ?? [],
      });
      if (!paired.ok) return paired;
      const manual = new Set((settings?.manualPairings ?? []).map((p) => [p.a, p.b].sort().join('|')));
      return ok({
        boards: paired.value.pairings.map((p) => ({ seats: [...p.seats], games: [[...p.seats]], manual: manual.has([...p.seats].sort().join('|')), walkover: null })),
        byes: paired.value.byes,
        rest: null,
        warnings: paired.value.warnings,
      });
    }
    case 'tables': {
      const seated = seatTables({
        round,
        participants: t.participants,
        history,
        points: tp,
        seatCount: t.config.seatCount,
        minSeats: t.config.minSeats,
        manualTables: (settings?.manualTables ?? []).map((seats) => ({ seats })),
        absent: settings?.absent ?? [],
        requestedByes: settings?.requestedByes ?? [],
        seating: t.config.tableSeating,
      });
      if (!seated.ok) return seated;
      const manual = new Set((settings?.manualTables ?? []).map((seats) => seats.join('|')));
      return ok({
        boards: seated.value.tables.map((table) => ({ seats: table.seats, games: [table.seats], manual: manual.has(table.seats.join('|')), walkover: null })),
        byes: seated.value.byes,
        rest: null,
        warnings: [],
      });
    }
    case 'roundRobin':
    case 'doubleRoundRobin':
      return ok(roundRobinBoards(t, round, lots));
    case 'knockout':
      return knockoutBoards(t, round, lots);
    case 'groupsKnockout':
      return groupsKnockoutBoards(t, round, lots);
    case 'doubleElimination': {
      const paired = doubleEliminationBoards(t, round, lots);
      return paired.ok ? ok({ boards: paired.value.boards, byes: [], rest: null, warnings: [], ...(paired.value.order ? { order: paired.value.order } : {}) }) : paired;
    }
  }
}

/** Rounds a round-robin or knockout has, once its numbers or seeds are known. */
export function totalRoundsFor(t: TournamentState, order: readonly string[]): number | null {
  if (t.config.format === 'knockout') return knockoutRoundCount(order.length);
  // K6.10: at most; an event without a bracket reset to play ends a round earlier (eventOver).
  if (t.config.format === 'groupsKnockout') return groupsKnockoutRounds(t.config, order);
  if (t.config.format === 'doubleElimination') return doubleEliminationRounds(order.length, t.config.bracketReset !== false);
  if (t.config.format === 'roundRobin' || t.config.format === 'doubleRoundRobin') return roundRobinRoundCount(order.length, t.config.format === 'doubleRoundRobin');
  return t.config.rounds;
}

function roundRobinBoards(t: TournamentState, round: number, lots: Lots): Pairing {
  const order =
    round === 1
      ? roundRobinNumbers(
          t.participants.filter((p) => p.withdrawnAfterRound === null),
          t.config.rrNumbering,
          lots,
        )
      : t.rounds[0].order!;
  const scheduled = roundRobinRound(order.length, t.config.format === 'doubleRoundRobin', round);
  const id = (n: number) => order[n - 1];
  return {
    // RR4.6: a withdrawn participant's games stay on the schedule as forfeits (no game is played).
    boards: scheduled.boards.map((b) => {
      const seats = b.seats.map(id);
      const walkover = seats.find((s) => withdrawnBefore(t, s, round)) ?? null;
      return { seats, games: walkover ? [] : [seats], manual: false, walkover };
    }),
    byes: [],
    rest: scheduled.rest === null ? null : id(scheduled.rest),
    warnings: [],
    ...(round === 1 ? { order } : {}),
  };
}

function knockoutBoards(t: TournamentState, round: number, lots: Lots): Result<Pairing> {
  let seeds: string[];
  if (round === 1) {
    const entrants = t.participants.filter((p) => p.withdrawnAfterRound === null);
    const seeded = knockoutSeeds(entrants, t.config.koSeeding, lots, t.settings[1]?.seeds ?? undefined);
    if (!seeded.ok) return seeded;
    seeds = seeded.value;
  } else seeds = t.rounds[0].order!;
  const boards = matchBoards(t, round, knockoutStageMatches(t, round, 1, seeds), (m) => openMatch(m, seeds));
  return ok({ boards, byes: [], rest: null, warnings: [], ...(round === 1 ? { order: seeds } : {}) });
}

/** K6.6-K6.8: a knockout match from its games so far (the games with results, in order). */
export function decideBoard(t: TournamentState, board: BoardState, lots: Lots): Result<MatchState> {
  const games: MatchGame[] = [];
  for (const g of board.games) {
    const r = board.results[g.gameId];
    if (!r) break;
    games.push(matchGame(r));
  }
  const tieRule = parseTieRule(t.config.koTieRule);
  if (!tieRule.ok) return tieRule;
  const round = t.rounds.findIndex((r) => r.boards.includes(board)) + 1 || t.rounds.length;
  return decideMatch({
    games,
    gamesPerMatch: t.config.gamesPerMatch,
    tieRule: tieRule.value,
    points: pointValues(t.config),
    betterSeed: board.seats[0],
    other: board.seats[1],
    gamePointsOrder: t.config.gamePointsOrder,
    lots,
    label: t.config.format === 'doubleElimination' ? doubleEliminationLabel(t, round, board.board) : koTieLabel('KO', round, board.board),
  });
}

function matchGame(r: GameResultPayload): MatchGame {
  const seats: [string, string] = [r.seats[0].participantId, r.seats[1].participantId];
  const kinds = r.seats.map((s) => s.kind);
  if (kinds[0] === 'DOUBLE_FORFEIT') return { kind: 'DOUBLE_FORFEIT', seats };
  if (kinds.includes('FORFEIT_WIN')) return { kind: 'FORFEIT', seats, winner: seats[kinds.indexOf('FORFEIT_WIN')] };
  const points = r.seats.map((s) => (s.gamePoints === null ? rat(0) : rational(s.gamePoints))) as [Rational, Rational];
  return { kind: 'PLAYED', seats, winner: r.ranking.length === 2 ? seats[r.ranking[0][0]] : null, gamePoints: points };
}

/** Standings after the completed rounds (TB8.11), or after `rounds` of them. */
export function standingsOf(t: TournamentState, lots: Lots, rounds = completedRounds(t)): Standings {
  if (isBracket(t.config.format)) throw new RangeError('a knockout ranks by placings (K6.9, K6.10)');
  return standings({
    participants: t.participants,
    history: historyOf(t, rounds),
    rounds,
    points: pointValues(t.config),
    tieBreaks: t.config.tieBreaks,
    gamePointsOrder: t.config.gamePointsOrder,
    format: t.config.format === 'tables' ? 'tables' : 'twoSeat',
    lots,
  });
}

/** K6.9 placings of a knockout (K6.10: of a double elimination): who is out so far, and the champion once the final is decided. */
export function placingsOf(t: TournamentState): { participantId: string; place: number }[] {
  if (t.config.format === 'doubleElimination') return doubleEliminationPlacingsOf(t);
  if (t.config.format === 'groupsKnockout') return groupsKnockoutPlacings(t);
  const seeds = t.rounds[0]?.order;
  if (!seeds) return [];
  const rounds: DecidedMatch[][] = t.rounds.map((r) => r.boards.flatMap((b) => (b.winner === undefined ? [] : [boardMatch(b)])));
  return knockoutPlacings(seeds.length, rounds, t.config.thirdPlaceMatch === true);
}

/** What a tournament's standings answer after `afterRound` completed rounds (all, without it): a knockout's placings, else the rows (TB8.11). */
export function standingsAfter(t: TournamentState, lots: Lots, afterRound?: number | null): Result<{ knockout: ReturnType<typeof placingsOf> | null; rows: Standings['rows'] }> {
  const rounds = afterRound ?? completedRounds(t);
  if (!Number.isInteger(rounds) || rounds < 0 || rounds > completedRounds(t)) return fail('INVALID_INPUT', `standings exist after rounds 0 to ${completedRounds(t)}`);
  if (isBracket(t.config.format)) return ok({ knockout: placingsOf(t), rows: [] });
  return ok({ knockout: null, rows: standingsOf(t, lots, rounds).rows });
}

/** The final ranking a TournamentFinished records: placings (knockout) or standings. */
export function finalRanking(t: TournamentState, lots: Lots): { participantId: string; rank: number }[] {
  if (isBracket(t.config.format)) return placingsOf(t).map((p) => ({ participantId: p.participantId, rank: p.place }));
  return standingsOf(t, lots).rows.map((r) => ({ participantId: r.participantId, rank: r.rank }));
}

/** Whether the event is over after its last result: its last round complete (K6.10: a double elimination once its grand finals are decided). */
export function eventOver(t: TournamentState): boolean {
  if (t.config.format === 'doubleElimination') return doubleEliminationOver(t);
  const round = t.rounds[t.rounds.length - 1];
  return round !== undefined && t.totalRounds !== null && round.round === t.totalRounds && roundComplete(t, round);
}
