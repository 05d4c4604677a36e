import type { Result } from '../../../engines/kit/index.js';
import { extrasProblem } from './bulk.js';
import { type DecidingHost, PARTICIPANT_LIMIT, refuse, type TournamentCommand, type TournamentDecision } from './commands.js';
import type { GameResultPayload } from './events.js';
import { playedRounds, selfRegistrationRefused } from './schedule.js';
import { participantById, type TournamentState } from './state.js';

/** A tournament's registration commands: entries one at a time or in bulk, and withdrawals. */

/** P2.1, P2.2, P2.8: one entry, by the organizer or (open registration, in its window) the player. */
export function registerParticipant(host: DecidingHost, command: Extract<TournamentCommand, { type: 'RegisterParticipant' }>): Result<TournamentDecision> {
  const t = host.state;
  if (!host.organizer && !t.config.openRegistration) return refuse('FORBIDDEN', 'registration is by the organizer only');
  const outsideWindow = host.organizer ? null : selfRegistrationRefused(t, host.decide.now);
  if (outsideWindow) return outsideWindow;
  const paired = t.rounds.length;
  if (paired > 0 && !['swiss', 'tables'].includes(t.config.format)) return refuse('REGISTRATION_CLOSED', `a ${t.config.format} tournament takes no entries after round 1 is paired (P2.2)`);
  if (paired > 0 && !host.organizer) return refuse('REGISTRATION_CLOSED', 'registration closed when round 1 was paired; a late entry is added by the organizer (P2.1, P2.2)');
  if (t.totalRounds !== null && paired >= t.totalRounds) return refuse('REGISTRATION_CLOSED', 'every round is paired');
  if (t.participants.length >= PARTICIPANT_LIMIT) return refuse('TOO_MANY_PARTICIPANTS', `a tournament takes at most ${PARTICIPANT_LIMIT} participants (P2.8)`);
  const { player, externalId, requestedByes } = command;
  if (player && t.participants.some((p) => p.player === player)) return refuse('PLAYER_ALREADY_SEATED', 'this player is a participant of this tournament already');
  const extras = extrasProblem(t, command);
  if (!extras.ok) return extras;
  return host.apply({
    type: 'ParticipantRegistered',
    payload: {
      participantId: command.participantId,
      registrationNo: t.participants.length + 1,
      name: command.name,
      rating: command.rating,
      entryRound: paired + 1,
      ...(player ? { player } : {}),
      ...(command.ratingFrom ? { ratingFrom: command.ratingFrom } : {}),
      ...(externalId ? { externalId } : {}),
      ...(requestedByes?.length ? { requestedByes } : {}),
    },
  });
}

/** Many entries at once, all or none (bulk.ts). */
export function registerParticipants(host: DecidingHost, command: Extract<TournamentCommand, { type: 'RegisterParticipants' }>): Result<TournamentDecision> {
  if (!host.organizer) return refuse('FORBIDDEN', 'the organizer registers participants in bulk');
  for (const entry of command.entries) {
    const r = registerParticipant(host, { type: 'RegisterParticipant', ...entry });
    if (!r.ok) return r;
  }
  return host.done();
}

/** P2.3, P2.4: a participant leaves; its unplayed games of the rounds being played are its forfeit losses. */
export function withdrawParticipant(host: DecidingHost, participantId: string, reason: string | null): Result<TournamentDecision> {
  const t = host.state;
  const p = participantById(t, participantId);
  if (!p) return refuse('NOT_IN_TOURNAMENT', `participant ${participantId} is not in this tournament`);
  if (!host.organizer && !(t.config.selfWithdrawal && host.decide.actor.role === 'participant' && host.decide.actor.participantId === participantId)) {
    return refuse('FORBIDDEN', 'only the organizer withdraws participants here');
  }
  if (p.withdrawnAfterRound !== null) return refuse('ALREADY_WITHDRAWN', `${p.name} withdrew after round ${p.withdrawnAfterRound}`);
  const refused = host.apply({ type: 'ParticipantWithdrawn', payload: { participantId, afterRound: t.rounds.length, reason } });
  if (!refused.ok) return refused;
  // P2.4: each game of the current round it has not played is its forfeit loss, every game of a
  // knockout match included (K6.8: the first decides the match, docs/rules/tournaments.md §K6.8).
  // They are all recorded before the round goes on, which may end the tournament.
  // A table plays on without them: the organizer records the table's result (R3.5).
  // Every round of a round-robin scheduled at once is being played (P2.11): each forfeits its unplayed games.
  const rounds = t.config.format === 'tables' ? [] : playedRounds(host.state);
  if (rounds.length === 0) return host.done();
  for (const round of rounds)
    for (const board of round.boards) {
      for (const game of board.games) {
        if (!game.seats.includes(participantId) || board.results[game.gameId]) continue;
        const forfeit = forfeitResult(host.state, round.round, board.board, game, participantId, reason ?? 'withdrawn (P2.4)');
        const r = host.apply({ type: 'ResultRecorded', payload: forfeit });
        if (!r.ok) return r;
      }
    }
  return host.afterResult();
}

/** A forfeit lost by `absentee` on a scheduled game (P2.4, R3.2). */
export function forfeitResult(t: TournamentState, round: number, board: number, game: { gameId: string; seats: string[] }, absentee: string, reason: string): GameResultPayload {
  const twoSeat = t.config.format !== 'tables';
  return {
    round,
    board,
    gameId: game.gameId,
    source: 'organizer',
    seats: game.seats.map((participantId) => ({
      participantId,
      kind: participantId === absentee ? 'FORFEIT_LOSS' : twoSeat ? 'FORFEIT_WIN' : 'FORFEIT_LOSS',
      gamePoints: null,
    })),
    ranking: [],
    head: null,
    record: null,
    reason,
  };
}
