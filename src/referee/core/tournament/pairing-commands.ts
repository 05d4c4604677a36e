import type { Result } from '../../../engines/kit/index.js';
import { withRegisteredByes } from './bulk.js';
import { type DecidingHost, refuse, type TournamentDecision } from './commands.js';
import type { BoardPlan, RoundSettings } from './events.js';
import { pairRound } from './formats.js';
import { roundComplete } from './history.js';
import { currentRound, participantById } from './state.js';

/** A tournament's round commands: setting the next round up and pairing it. */

/** P2.6 and the manual pairings: the next round's settings, by the organizer. */
export function setRoundSettings(host: DecidingHost, s: RoundSettings): Result<TournamentDecision> {
  const t = host.state;
  if (!host.organizer) return refuse('FORBIDDEN', 'only the organizer sets a round up');
  if (s.round !== t.rounds.length + 1) return refuse('ROUND_ALREADY_PAIRED', `settings are for the next round to pair, round ${t.rounds.length + 1}`);
  const known = new Set(t.participants.map((p) => p.id));
  const named = [
    ...s.manualPairings.flatMap((p) => [p.a, p.b, ...(p.seats ?? [])]),
    ...(s.manualBye ? [s.manualBye] : []),
    ...s.manualTables.flat(),
    ...s.absent,
    ...s.requestedByes,
    ...s.forbiddenPairs.flat(),
    ...(s.seeds ?? []),
  ];
  const stranger = named.find((id) => !known.has(id));
  if (stranger) return refuse('NOT_IN_TOURNAMENT', `participant ${stranger} is not in this tournament`);
  const placed = [...s.manualPairings.flatMap((p) => [p.a, p.b]), ...(s.manualBye ? [s.manualBye] : []), ...s.manualTables.flat(), ...s.absent, ...s.requestedByes];
  if (new Set(placed).size !== placed.length) return refuse('INVALID_INPUT', 'a participant is named twice among manual pairings, tables, byes and absences');
  for (const p of s.manualPairings)
    if (p.seats && (p.seats.length !== 2 || !p.seats.includes(p.a) || !p.seats.includes(p.b))) return refuse('INVALID_INPUT', "manual seats list the pairing's two participants");
  const twoSeat = t.config.format !== 'tables';
  if (s.manualTables.length > 0 && twoSeat) return refuse('INVALID_INPUT', 'manual tables are for the tables format');
  if ((s.manualPairings.length > 0 || s.manualBye) && t.config.format !== 'swiss')
    return refuse('INVALID_INPUT', 'manual pairings and byes are for Swiss rounds (round-robin and knockout rounds are fixed)');
  if ((s.absent.length > 0 || s.requestedByes.length > 0) && !['swiss', 'tables'].includes(t.config.format))
    return refuse('INVALID_INPUT', 'absences and requested byes are for Swiss and tables rounds (P2.6)');
  for (const table of s.manualTables)
    if (table.length < t.config.minSeats || table.length > t.config.seatCount) return refuse('INVALID_INPUT', `a table seats ${t.config.minSeats} to ${t.config.seatCount}`);
  for (const id of s.requestedByes) {
    const used = t.rounds.filter((r) => r.requestedByes.includes(id)).length;
    if (used >= t.config.maxRequestedByes) return refuse('BYE_LIMIT', `${participantById(t, id)!.name} has had ${used} requested bye(s), the most allowed (P2.6)`);
  }
  return host.apply({ type: 'RoundSettingsSet', payload: s });
}

/** The next round's pairing and its games, with the lots it draws. */
export function pairNextRound(host: DecidingHost, requested: number | null): Result<TournamentDecision> {
  const t = host.state;
  if (!host.organizer) return refuse('FORBIDDEN', 'only the organizer pairs rounds');
  const round = t.rounds.length + 1;
  if (requested !== null && requested !== round) return refuse('ROUND_NOT_FINISHED', `the next round to pair is round ${round}`);
  const last = currentRound(t);
  if (last && !roundComplete(t, last) && !t.config.schedule?.scheduleAll) return refuse('ROUND_NOT_FINISHED', `round ${last.round} still has games without a result`);
  if (t.totalRounds !== null && round > t.totalRounds) return refuse('TOURNAMENT_COMPLETE', `all ${t.totalRounds} rounds are paired`);
  const active = t.participants.filter((p) => p.withdrawnAfterRound === null);
  if (round === 1 && active.length < 2) return refuse('TOO_FEW_PARTICIPANTS', 'a tournament needs at least 2 participants');
  // P2.6: the byes participants asked for when they registered are the round's settings too.
  const byes = withRegisteredByes(t, round);
  const set = host.applyAll(byes ? [{ type: 'RoundSettingsSet', payload: byes }] : []);
  if (!set.ok) return set;
  const lots = host.recordingLots();
  const pairing = pairRound(host.state, lots);
  if (!pairing.ok) return pairing;
  for (const lot of lots.drawn) {
    const r = host.apply({ type: 'LotsDrawn', payload: lot });
    if (!r.ok) return r;
  }
  const p = pairing.value;
  const boards: BoardPlan[] = p.boards.map((b, i) => ({
    board: i + 1,
    seats: b.seats,
    games: b.games.map((seats) => ({ gameId: host.decide.newGameId(), seats })),
    manual: b.manual,
    walkover: b.walkover,
  }));
  const paired = host.apply({ type: 'RoundPaired', payload: { round, boards, byes: p.byes, rest: p.rest, warnings: p.warnings, ...(p.order ? { order: p.order } : {}) } });
  if (!paired.ok) return paired;
  // A round of byes and walkovers only (a knockout's first round can be) is over at once.
  return host.afterResult();
}
