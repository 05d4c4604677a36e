/** The Engine contract over the state machine in game.ts: outcome and wiring. */
import type { Engine, Outcome, Seat } from '../../../engines/kit/index.js';
import { apply, awaited, finalScore, forcedAction, forfeit, initialState, legalActions, pendingChance, resolveChance, SEAT_NAMES, toAct } from './game.js';
import { parseAction, parseRuleset } from './parse.js';
import type { BackgammonAction, BackgammonRuleset, BackgammonState, GameResult } from './types.js';
import { viewState } from './view.js';

/** How one game ended (docs/rules/backgammon.md §10, §11): "White wins a gammon (2 points)". */
function describeGame(g: GameResult, who: (seat: Seat) => string): string {
  const how =
    g.endedBy === 'dropped-double'
      ? 'on a dropped double'
      : g.endedBy === 'resignation'
        ? `by resignation (${g.level})`
        : g.endedBy === 'forfeit'
          ? 'by forfeit'
          : g.level === 'single'
            ? 'a single game'
            : `a ${g.level}`;
  return `${who(g.winner)} wins ${how} (${g.points} point${g.points === 1 ? '' : 's'})`;
}

interface BackgammonOutcomeDetails {
  matchLength: number;
  finalScore: [number, number];
  games: GameResult[];
}

/** A money game by how it ended, a match by its final score (docs/rules/backgammon.md §9, §11, §12.2). */
function describe(o: Outcome, who: (seat: Seat) => string): string {
  const { matchLength, finalScore: score, games } = o.details as BackgammonOutcomeDetails;
  const last = games[games.length - 1];
  const winner = o.winners[0];
  return matchLength === 0 ? describeGame(last, who) : `${who(winner)} wins the ${matchLength}-point match ${score[winner]}-${score[1 - winner]}${last.endedBy === 'forfeit' ? ' by forfeit' : ''}`;
}

const seatLabel = (seat: Seat): string => SEAT_NAMES[seat];

function outcome(s: BackgammonState): Outcome | null {
  if (s.phase !== 'match-over' || s.matchWinner === null) return null;
  const score = finalScore(s);
  const result = { winners: [s.matchWinner], points: score, details: { matchLength: s.ruleset.matchLength, finalScore: score, games: s.games } };
  return { winners: result.winners, points: score, summary: describe({ ...result, summary: '' }, seatLabel), details: result.details };
}

/**
 * What no backgammon game or match ends with (docs/rules/backgammon.md §12.3): a draw, or points
 * that do not fit who won (money: the winner scores, the loser none; a match: only the winner reached N).
 */
function unreachable(ruleset: BackgammonRuleset, o: Pick<Outcome, 'winners' | 'points'>): string | null {
  if (o.winners.length !== 1) return 'backgammon has no draws: every game and every match has one winner (docs/rules/backgammon.md §12.3)';
  const [w, l] = [o.winners[0], 1 - o.winners[0]];
  const [won, lost] = [o.points[w], o.points[l]];
  if (![won, lost].every(Number.isInteger)) return 'backgammon points are whole numbers (docs/rules/backgammon.md §11)';
  const n = ruleset.matchLength;
  if (n === 0 && (won < 1 || lost !== 0)) return 'a money game gives its winner 1 point or more and its loser none (docs/rules/backgammon.md §12.3)';
  if (n > 0 && (won < n || lost < 0 || lost >= n)) return `a ${n}-point match ends when its winner reaches ${n}, the loser below it (docs/rules/backgammon.md §12.3)`;
  return null;
}

/** The rules engine without record support (records replay through it). */
export const backgammonRules: Engine<BackgammonRuleset, BackgammonState, BackgammonAction> = {
  kind: 'backgammon',
  parseRuleset,
  seatCount: () => 2,
  parseAction,
  init: initialState,
  pendingChance,
  resolveChance,
  toAct,
  awaited,
  legalActions,
  forcedAction,
  apply,
  resign: forfeit,
  view: (state) => viewState(state),
  outcome,
  unreachable,
  seatLabel,
  describe,
};
