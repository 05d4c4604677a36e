import type { GameResultPayload } from './events.js';
import { boardOfGame, type TournamentState } from './state.js';

/**
 * docs/rules/tournaments.md §K6.8 (In Arbiter): an organizer's forfeit decides a knockout match of
 * several games at once, and the match's games not yet played are closed with it: each is recorded
 * as the same forfeit (the same winner, or a double forfeit), with a reason naming the game that
 * decided the match. Their games on the service are then closed like any organizer's entry. Empty
 * for a played result, a correction, another format, or a match not decided by this result.
 */
export function matchForfeits(t: TournamentState, result: GameResultPayload, correction: boolean): GameResultPayload[] {
  if (t.config.format !== 'knockout' || correction || result.seats.every((s) => s.kind === 'PLAYED')) return [];
  const at = boardOfGame(t, result.gameId);
  if (!at || at.board.winner === undefined) return [];
  const kindOf = new Map(result.seats.map((s) => [s.participantId, s.kind]));
  const decidedIn = at.board.games.findIndex((g) => g.gameId === result.gameId) + 1;
  return at.board.games
    .filter((g) => g.gameId !== result.gameId && !at.board.results[g.gameId])
    .map((g) => ({
      round: result.round,
      board: result.board,
      gameId: g.gameId,
      source: 'organizer' as const,
      seats: g.seats.map((participantId) => ({ participantId, kind: kindOf.get(participantId)!, gamePoints: null })),
      ranking: [],
      head: null,
      record: null,
      reason: `the match was decided by the forfeit in game ${decidedIn} (K6.8)`,
    }));
}
