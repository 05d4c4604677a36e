import type { Outcome } from '../../../engines/kit/index.js';
import { canonicalJson } from '../canonical.js';
import type { TournamentConfig } from './config.js';
import type { GameResultPayload, ScheduledGame } from './events.js';
import { format, parse } from './rational.js';

/**
 * A refereed game's outcome as a tournament result (T1.9, T1.10, TA7.6): the service records it
 * this way and the verifier recomputes it from the game's own bundle, so both agree by
 * construction. Seats are ranked winners first, then by game points (pips: fewer first).
 */
export function rankingOf(config: Pick<TournamentConfig, 'gamePointsOrder'>, outcome: Pick<Outcome, 'winners' | 'points'>, seatCount: number): number[][] {
  if (seatCount === 2) return outcome.winners.length === 1 ? [[outcome.winners[0]], [1 - outcome.winners[0]]] : [[0, 1]];
  const better = config.gamePointsOrder === 'lower' ? 1 : -1;
  const key = (s: number) => [outcome.winners.includes(s) ? 0 : 1, better * outcome.points[s]];
  const seats = Array.from({ length: seatCount }, (_, s) => s).sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    return ka[0] - kb[0] || ka[1] - kb[1] || a - b;
  });
  const groups: number[][] = [];
  for (const s of seats) {
    const last = groups[groups.length - 1];
    if (last && canonicalJson(key(last[0])) === canonicalJson(key(s))) last.push(s);
    else groups.push([s]);
  }
  return groups;
}

export function resultFromOutcome(
  config: Pick<TournamentConfig, 'gamePointsOrder'>,
  scheduled: { round: number; board: number; game: ScheduledGame },
  outcome: Pick<Outcome, 'winners' | 'points'>,
  head: { seq: number; hash: string },
): GameResultPayload {
  const { game } = scheduled;
  return {
    round: scheduled.round,
    board: scheduled.board,
    gameId: game.gameId,
    source: 'game',
    seats: game.seats.map((participantId, seat) => ({ participantId, kind: 'PLAYED', gamePoints: gamePoints(outcome.points[seat]) })),
    ranking: rankingOf(config, outcome, game.seats.length),
    head,
    record: null,
    reason: null,
  };
}

const gamePoints = (points: number): string => {
  const r = parse(points);
  return r ? format(r) : '0';
};

/** Whether an entered result says what a game's outcome says (same ranking, same game points). */
export function agreesWith(config: Pick<TournamentConfig, 'gamePointsOrder'>, entered: Pick<GameResultPayload, 'seats' | 'ranking'>, outcome: Pick<Outcome, 'winners' | 'points'>): boolean {
  if (entered.seats.some((s) => s.kind !== 'PLAYED')) return false;
  const ranking = rankingOf(config, outcome, entered.seats.length);
  const points = entered.seats.map((s, seat) => s.gamePoints === gamePoints(outcome.points[seat]));
  return canonicalJson(ranking) === canonicalJson(entered.ranking) && points.every(Boolean);
}

/** Whether two results of one game say the same: each seat's kind and game points, and the ranking. */
export function sameResult(a: Pick<GameResultPayload, 'seats' | 'ranking'>, b: Pick<GameResultPayload, 'seats' | 'ranking'>): boolean {
  return canonicalJson([a.seats, a.ranking]) === canonicalJson([b.seats, b.ranking]);
}
