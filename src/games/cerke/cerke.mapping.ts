import type { GameStatusEnum } from '../../api/models.js';
import { sideOf } from './engine/board.js';
import type { GameResult, Hand, NegativeHand, SeasonResult, Side, StickCast } from './engine/index.js';
import type { Outcome } from '../../engines/kit/index.js';
import type { view } from './engine/view.js';
import { type GameAnswer, type GameSnapshot } from '../../referee/index.js';
import { shownIn } from '../typed-game.js';
import type { CerkeHand, CerkeOutcome, CerkeSeasonResult, CerkeStateModel, CerkeStickCast } from './dto/state.model.js';

/** What the Cerke engine shows a viewer. */
export type CerkeView = ReturnType<typeof view>;

/** Negative hands have no flash; GraphQL answers false for them. */
const toHand = (hand: Hand | NegativeHand): CerkeHand => ({ name: hand.name, flash: 'flash' in hand && hand.flash, value: hand.value });

/** One shape for every cast: the first-mover cast lists both sides, IA first. */
function toCast(cast: StickCast): CerkeStickCast {
  if (cast.purpose === 'firstMover') {
    return { purpose: cast.purpose, casts: (['IA', 'A'] as const).map((side) => ({ side, sticks: cast.sticks[side], value: cast.values[side] })) };
  }
  return { purpose: cast.purpose, casts: [{ side: cast.side, sticks: cast.sticks, value: cast.value }] };
}

const toSeasonResult = (s: SeasonResult): CerkeSeasonResult => ({ ...s, hands: s.hands.map(toHand) });

export function toCerkeState(game: GameSnapshot, answer: GameAnswer): CerkeStateModel {
  const v = answer.view as CerkeView;
  const decision = v.pendingDecision;
  return {
    ...shownIn(answer),
    gameId: game.gameId,
    version: game.version,
    status: game.status as GameStatusEnum,
    viewerSide: v.viewerSide,
    profile: v.profile,
    ruleset: v.ruleset,
    seasonCount: v.seasonCount,
    season: v.season,
    stake: v.stake,
    points: v.points,
    toMove: v.toMove,
    toAct: answer.toAct,
    phase: v.phase,
    board: v.board,
    tam2: v.tam2,
    capturedPiles: v.capturedPiles,
    pendingDecision:
      decision &&
      // A step completion always follows a stepping move, so it has a via square.
      (decision.type === 'declaration' ? { ...decision, hands: decision.hands.map(toHand) } : { ...decision, via: decision.via! }),
    lastCast: v.lastCast && toCast(v.lastCast),
    tam2MovedLastTurn: v.tam2MovedLastTurn,
    steppingOnTam2ThisSeason: v.steppingOnTam2ThisSeason,
    seasonResults: v.seasonResults.map(toSeasonResult),
    result: v.result && { winners: v.result.winners.map(sideOf), reason: v.result.reason, resignedBy: v.result.resignedBy ?? null },
  };
}

/** The outcome's details as the engine writes them (src/games/cerke/engine/view.ts). */
type OutcomeDetails = { reason: GameResult['reason']; resignedBy: Side | null; points: { IA: number; A: number }; seasons: SeasonResult[] };

export function toCerkeOutcome(outcome: Outcome): CerkeOutcome | null {
  const d = outcome.details as OutcomeDetails | undefined;
  if (!d) return null;
  return { winners: outcome.winners.map(sideOf), reason: d.reason, resignedBy: d.resignedBy ?? null, points: d.points, seasons: d.seasons.map(toSeasonResult) };
}
