import type { Engine, Outcome } from '../../../engines/kit/index.js';
import { canonicalJson } from '../canonical.js';
import type { TournamentConfig } from './config.js';
import type { GameResultPayload, ScheduledGame } from './events.js';
import { format, parse } from './rational.js';
import type { TournamentState } from './state.js';

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

/** What is wrong with a result's seats and ranking for this game, if anything (R3.1, R3.5). */
export function resultShapeProblem(t: TournamentState, seats: readonly string[], r: GameResultPayload): string | null {
  if (r.seats.length !== seats.length || r.seats.some((s, i) => s.participantId !== seats[i])) return "the result's seats are not the game's";
  const kinds = r.seats.map((s) => s.kind);
  const played = kinds.flatMap((k, i) => (k === 'PLAYED' ? [i] : []));
  const ranked = r.ranking.flat();
  if (ranked.length !== played.length || [...ranked].sort((a, b) => a - b).some((s, i) => s !== played[i])) return 'the ranking must place exactly the seats that played';
  for (const s of r.seats) if ((s.kind === 'PLAYED') !== (s.gamePoints !== null)) return 'game points are given for played seats only (R3.4)';
  if (t.config.format !== 'tables') {
    const k = [...kinds].sort().join(',');
    if (!['PLAYED,PLAYED', 'FORFEIT_LOSS,FORFEIT_WIN', 'DOUBLE_FORFEIT,DOUBLE_FORFEIT'].includes(k))
      return 'a 2-seat result is played, a forfeit (one FORFEIT_WIN, one FORFEIT_LOSS) or a double forfeit';
    if (played.length === 2 && r.ranking.length === 2 && (r.ranking[0].length !== 1 || r.ranking[1].length !== 1)) return 'a 2-seat ranking is a winner then a loser, or both tied';
    return null;
  }
  const present = kinds.filter((k) => k !== 'FORFEIT_LOSS').length;
  if (kinds.includes('DOUBLE_FORFEIT')) return 'a table has no double forfeit: absent seats are FORFEIT_LOSS (R3.5)';
  if (kinds.includes('FORFEIT_WIN') && (played.length > 0 || present >= t.config.minSeats)) return 'FORFEIT_WIN at a table only when too few were present to play (R3.5)';
  if (played.length > 0 && played.length < t.config.minSeats) return `a table is played by at least ${t.config.minSeats} (R3.5)`;
  return null;
}

/**
 * R3.9: why an organizer's played result is one its game cannot end with, citing the rule: the
 * game's own (`unreachable`: a draw in backgammon, Cerke points not adding up to 40), or, at a
 * table entered without a record, places that do not follow the game points (TA7.6). A refereed
 * game's result is its own outcome, and a record's is the record's: both are checked against
 * their game instead.
 */
export function impossibleResult(
  engine: Pick<Engine, 'unreachable'> | undefined,
  config: Pick<TournamentConfig, 'kind' | 'format' | 'ruleset' | 'tableRulesets' | 'gamePointsOrder'>,
  r: Pick<GameResultPayload, 'source' | 'seats' | 'ranking' | 'record'>,
): string | null {
  if (r.source !== 'organizer' || r.ranking.length === 0) return null;
  const played = r.seats.flatMap((s, i) => (s.kind === 'PLAYED' ? [i] : []));
  const points = new Map<number, number>();
  for (const i of played) {
    const p = parse(r.seats[i].gamePoints ?? '');
    if (!p) return `seat ${i}'s game points are not a number (R3.4)`;
    points.set(i, p.n / p.d);
  }
  const better = (a: number, b: number) => (config.gamePointsOrder === 'lower' ? a < b : a > b);
  if (config.format === 'tables' && !r.record) {
    for (const [g, group] of r.ranking.entries()) {
      if (group.some((s) => points.get(s) !== points.get(group[0]))) return `seats tied at a table have the same game points (TA7.6, R3.9)`;
      const below = r.ranking[g + 1]?.[0];
      if (below !== undefined && better(points.get(below)!, points.get(group[0])!)) return `a seat placed below another at a table has no better game points (TA7.6, R3.9)`;
    }
  }
  const ruleset = config.format === 'tables' ? config.tableRulesets[String(played.length)] : config.ruleset;
  const why = ruleset === undefined ? null : engine?.unreachable?.(ruleset, { winners: r.ranking[0].map((s) => played.indexOf(s)), points: played.map((i) => points.get(i)!) });
  return why ? `no ${config.kind} game ends this way (R3.9): ${why}` : null;
}
