/** What a player or spectator sees (everything in Cerke is public) and how a game ended. */
import { type CapturedPiece, type Colour, type Kind, type Side, SIDES, TAM2, isPiece, sideOf, squareName } from './board.js';
import { handsOf, scoreOf } from './hands.js';
import { type CerkeState, declaredHands, type GameResult, INITIAL_POINTS, type SeasonResult, seasonName } from './state.js';
import type { Outcome, Viewer } from '../../../engines/kit/index.js';

export function view(state: CerkeState, viewer: Viewer) {
  const board: { square: string; kind: Kind; colour: Colour; side: Side }[] = [];
  state.board.forEach((cell, square) => {
    if (isPiece(cell)) board.push({ square: squareName(square), kind: cell.kind, colour: cell.colour, side: cell.side });
  });
  const tam2 = state.board.indexOf(TAM2);
  const phase = state.phase;
  const side = sideOf(state.toMove);
  const pile = (seat: number) => {
    const hands = handsOf(state.capturedPiles[seat]);
    return { pieces: state.capturedPiles[seat] as CapturedPiece[], hands, score: scoreOf(hands) };
  };
  let pendingDecision = null;
  if (phase.name === 'declaration') {
    const { hands, handValue } = declaredHands(state, phase);
    pendingDecision = { type: 'declaration' as const, side, hands, handValue, pointsIfSeasonEnds: handValue * state.stake, stakeIfContinued: Math.min(64, state.stake * 2) };
  } else if (phase.name === 'stepCompletion') {
    const { from, via, to } = phase.move;
    pendingDecision = { type: 'stepCompletion' as const, side, from, via, planned: to, cast: phase.cast, completions: phase.completions };
  }
  let pendingCast = null;
  if (phase.name === 'firstMoverCast') pendingCast = { purpose: 'firstMover' as const };
  else if (phase.name === 'steppingCast' || phase.name === 'waterCast') {
    const { from, via, to } = phase.move;
    pendingCast = { purpose: phase.name === 'steppingCast' ? ('stepping' as const) : ('waterEntry' as const), side, move: { from, via, to } };
  }
  const acting = state.result || phase.name === 'firstMoverCast' ? null : side;
  return {
    viewerSide: viewer === 'spectator' ? null : (sideOf(viewer) ?? null),
    profile: state.ruleset.profile,
    ruleset: state.ruleset,
    seasonCount: state.ruleset.seasons,
    season: { number: state.season + 1, name: seasonName(state.ruleset, state.season), firstMover: state.firstMover },
    stake: state.stake,
    points: { IA: state.points[0], A: state.points[1] },
    sides: SIDES,
    toMove: acting,
    phase: phase.name,
    board,
    tam2: tam2 < 0 ? null : squareName(tam2),
    capturedPiles: { IA: pile(0), A: pile(1) },
    pendingDecision,
    pendingCast,
    lastCast: state.lastCast,
    tam2MovedLastTurn: state.previousTurnMovedTam2,
    steppingOnTam2ThisSeason: state.steppingOnTam2,
    seasonResults: state.seasonResults,
    result: state.result,
  };
}

export function outcome(state: CerkeState): Outcome | null {
  const result = state.result;
  if (!result) return null;
  const ranking = SIDES.map((side, seat) => ({ side, seat, points: state.points[seat] }))
    .sort((a, b) => b.points - a.points)
    .map((entry, i, all) => ({ rank: i > 0 && all[i - 1].points === entry.points ? 1 : i + 1, ...entry }));
  const details: CerkeOutcomeDetails = {
    reason: result.reason,
    resignedBy: result.resignedBy ?? null,
    points: { IA: state.points[0], A: state.points[1] },
    seasons: state.seasonResults,
    ranking,
  };
  const ended = { winners: result.winners, points: state.points.slice(), summary: '', details };
  return { ...ended, summary: describe(ended, sideOf) };
}

interface CerkeOutcomeDetails {
  reason: GameResult['reason'];
  resignedBy: Side | null;
  points: Record<Side, number>;
  seasons: SeasonResult[];
  ranking: { rank: number; side: Side; seat: number; points: number }[];
}

/** How the game ended (docs/rules/cerke.md §13): points ran out, the last season was played, a side had no legal action, or a resignation. */
export function describe(o: Outcome, who: (seat: number) => string): string {
  const d = o.details as CerkeOutcomeDetails;
  const score = `${d.points.IA}–${d.points.A} (IA–A)`;
  const seasons = `after ${d.seasons.length} season${d.seasons.length === 1 ? '' : 's'}`;
  if (d.reason === 'resignation') return `${who(o.winners[0])} wins: ${d.resignedBy === null ? 'the other side' : who(SIDES.indexOf(d.resignedBy))} resigned (${score})`;
  if (o.winners.length === 2) return `Draw at ${score} ${seasons}`;
  const stuck = d.seasons[d.seasons.length - 1]?.endedBy.side;
  const why = { pointsRanOut: 'points ran out', lastSeason: 'last season played', noLegalAction: `${stuck ? who(SIDES.indexOf(stuck)) : 'a side'} had no legal action` }[d.reason];
  return `${who(o.winners[0])} wins ${score} ${seasons} (${why})`;
}

/**
 * What no Cerke game ends with: points that do not add up to 40 (docs/rules/cerke.md §5.1), a
 * draw at unequal points, or a side at 0 winning or at 40 losing (§13). A resignation may be won
 * from behind.
 */
export function unreachable(_ruleset: unknown, o: Pick<Outcome, 'winners' | 'points'>): string | null {
  const total = 2 * INITIAL_POINTS;
  const [ia, a] = o.points;
  if (![ia, a].every((p) => Number.isInteger(p) && p >= 0 && p <= total) || ia + a !== total)
    return `Cerke points are whole numbers from 0 to ${total} that add up to ${total} (docs/rules/cerke.md §5.1)`;
  if (o.winners.length === 2 && ia !== a) return `a Cerke game is drawn only at ${INITIAL_POINTS}–${INITIAL_POINTS}: otherwise the side with more points wins (docs/rules/cerke.md §13)`;
  if (o.winners.length === 1 && (o.points[o.winners[0]] === 0 || o.points[1 - o.winners[0]] === total)) return `a side at 0 points has lost and one at ${total} has won (docs/rules/cerke.md §13)`;
  return null;
}
