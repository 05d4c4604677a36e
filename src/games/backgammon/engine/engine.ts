/** The Engine contract over the state machine in game.ts: outcome and wiring. */
import type { Engine, Outcome, Seat } from '../../../engines/kit/index.js';
import { apply, awaited, finalScore, forcedAction, forfeit, initialState, legalActions, pendingChance, resolveChance, SEAT_NAMES, toAct } from './game.js';
import { parseAction, parseRuleset } from './parse.js';
import type { BackgammonAction, BackgammonRuleset, BackgammonState, GameResult } from './types.js';
import { viewState } from './view.js';

function describeGame(g: GameResult): string {
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
  return `${SEAT_NAMES[g.winner]} wins ${how} (${g.points} point${g.points === 1 ? '' : 's'})`;
}

function outcome(s: BackgammonState): Outcome | null {
  if (s.phase !== 'match-over' || s.matchWinner === null) return null;
  const r = s.ruleset;
  const score = finalScore(s);
  const winner: Seat = s.matchWinner;
  const last = s.games[s.games.length - 1];
  const summary =
    r.matchLength === 0 ? describeGame(last) : `${SEAT_NAMES[winner]} wins the ${r.matchLength}-point match ${score[winner]}-${score[1 - winner]}${last.endedBy === 'forfeit' ? ' by forfeit' : ''}`;
  return {
    winners: [winner],
    points: score,
    summary,
    details: { matchLength: r.matchLength, finalScore: score, games: s.games },
  };
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
};
