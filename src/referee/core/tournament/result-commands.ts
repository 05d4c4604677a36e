import type { Result } from '../../../engines/kit/index.js';
import { matchesIn } from './brackets.js';
import { CORRECTION_LIMIT, type DecidingHost, refuse, type TournamentDecision } from './commands.js';
import type { GameResultPayload } from './events.js';
import { boardAt } from './evolve.js';
import { decideBoard } from './formats.js';
import { matchForfeits } from './match-forfeits.js';
import { settlementBy } from './reports.js';

/** A tournament's result command: a result recorded or corrected. */

/** A game's result or its correction (R3), and what it implies: lots, forfeits, the next game or round. */
export function recordResult(host: DecidingHost, result: GameResultPayload, correction: boolean, agreed = false): Result<TournamentDecision> {
  if (result.source === 'organizer' && !host.organizer && !agreed) return refuse('FORBIDDEN', 'only the organizer records results');
  // R3.11: an organizer's result for a disputed game settles the dispute.
  const settles = settlementBy(host.state, result);
  const settled = settles.ok ? host.applyAll(settles.value ? [settles.value] : []) : settles;
  if (!settled.ok) return settled;
  const t = host.state;
  const lots = host.recordingLots();
  const at = boardAt(t, result.round, result.board);
  if (correction && at && (at.board.corrections ?? 0) >= CORRECTION_LIMIT)
    return refuse('TOO_MANY_CORRECTIONS', `board ${result.board} of round ${result.round} was corrected ${CORRECTION_LIMIT} times, the most allowed (R3.8)`);
  if (at && matchesIn(t, at.round.round) && !at.board.results[result.gameId]) {
    // Draw the match's lot now if the result leaves it to lots (K6.7), so it is recorded before it is used.
    const withResult = { ...at.board, results: { ...at.board.results, [result.gameId]: result } };
    const d = decideBoard(t, withResult, lots);
    if (!d.ok) return refuse('INVALID_RESULT', d.error.message);
  }
  for (const lot of lots.drawn) {
    const r = host.apply({ type: 'LotsDrawn', payload: lot });
    if (!r.ok) return r;
  }
  const r = host.apply({ type: correction ? 'ResultCorrected' : 'ResultRecorded', payload: result });
  if (!r.ok) return r;
  const forfeits = host.applyAll(matchForfeits(host.state, result, correction).map((payload) => ({ type: 'ResultRecorded' as const, payload })));
  if (!forfeits.ok) return forfeits;
  return host.afterResult();
}
