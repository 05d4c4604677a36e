import { decodeTournamentEvent, type GameResultPayload, type TournamentEvent } from '../core/tournament/events.js';
import { boardOfGame, type ParticipantRecord, type TournamentState } from '../core/tournament/state.js';
import type { StoredEvent } from '../core/stream.js';
import type { FeedRow } from '../store/player-feed-store.js';

/** What a tournament's events tell, as the webhooks' events name it, and the `type` each is sent as (the players' stream's). */
export const TOURNAMENT_NOTICE_TYPES = {
  PARTICIPANT_REGISTERED: 'tournament.participant_registered',
  CHECK_IN_OPENED: 'tournament.check_in_opened',
  ROUND_PAIRED: 'tournament.round_paired',
  RESULT_REPORTED: 'tournament.result_reported',
  RESULT_DISPUTED: 'tournament.result_disputed',
  DISPUTE_SETTLED: 'tournament.dispute_settled',
  TOURNAMENT_FINISHED: 'tournament.finished',
} as const;
export type TournamentNoticeEvent = keyof typeof TOURNAMENT_NOTICE_TYPES;

/**
 * One thing a tournament's events tell one of its people: the organizer (participantId null:
 * the tournament's registrations made with its token) or a participant (its own registrations,
 * and those of the player it is, and that player's stream).
 */
export interface TournamentNotice {
  event: TournamentNoticeEvent;
  type: string;
  participantId: string | null;
  /** The player the participant is (its stream and its key's webhooks are told too); null: none, or the organizer. */
  playerId: string | null;
  /** The event that caused it, and its place among the batch's notices: the order they are delivered in. */
  seq: number;
  n: number;
  /** The same however often the batch is derived, and unique among the stream's rows: a retry is never a second notice. */
  dedupeKey: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

/** Someone at a board, as a notice names them. */
interface Named {
  participantId: string;
  name: string;
  playerId: string | null;
}

/** The tournament, its participants found by id (a round of 1,000 looks up each once, not in a list). */
type Roster = TournamentState & { byId: ReadonlyMap<string, ParticipantRecord> };

type Told = { event: TournamentNoticeEvent; to: ParticipantRecord | null; data: Record<string, unknown> };

/**
 * What the events that take a tournament to `after` tell (the players' stream and the webhooks
 * send each to whom it is for): a participant registered (the organizer, and the participant);
 * check-in opened (everyone still in); a round paired (the organizer: the round; each participant:
 * its board, game, seat and opponents, or its bye); a participant's report of an over-the-board
 * result, a dispute, its settlement (the organizer and the others at the board); the final
 * standings (the organizer: the ranking; each participant: its rank). A withdrawn participant is
 * told nothing more.
 */
export function tournamentNoticesOf(after: TournamentState, events: readonly StoredEvent[]): TournamentNotice[] {
  const base = { tournamentId: after.tournamentId, tournamentName: after.config.name };
  const roster: Roster = { ...after, byId: new Map(after.participants.map((p) => [p.id, p])) };
  return events
    .flatMap((stored) => {
      const e = decodeTournamentEvent(stored);
      return e.ok ? toldOf(roster, e.value).map((told) => ({ told, stored })) : [];
    })
    .map(({ told: { event, to, data }, stored }, n) => ({
      event,
      type: TOURNAMENT_NOTICE_TYPES[event],
      participantId: to?.id ?? null,
      playerId: to?.player ?? null,
      seq: stored.seq,
      n,
      dedupeKey: `tournament ${after.tournamentId} ${stored.seq} ${to?.id ?? 'organizer'}`,
      data: { ...base, ...(to ? { participantId: to.id } : {}), ...data },
      createdAt: new Date(stored.createdAt),
    }));
}

/** The notices that are a player's: its rows of the players' stream. */
export const feedRowsOf = (notices: readonly TournamentNotice[]): FeedRow[] =>
  notices.flatMap(({ playerId, dedupeKey, type, data, createdAt }) => (playerId ? [{ playerId, dedupeKey, type, data, createdAt }] : []));

const organizer = (event: TournamentNoticeEvent, data: Record<string, unknown>): Told => ({ event, to: null, data });

/** `event` told to each of these participants still in, with its own data. */
function each(t: Roster, event: TournamentNoticeEvent, ids: readonly string[], data: (id: string) => Record<string, unknown>): Told[] {
  return ids.flatMap((id) => {
    const p = t.byId.get(id);
    return p && p.withdrawnAfterRound === null ? [{ event, to: p, data: data(id) }] : [];
  });
}

function toldOf(t: Roster, e: TournamentEvent): Told[] {
  switch (e.type) {
    case 'ParticipantRegistered': {
      const { participantId, registrationNo, name, rating, player, externalId } = e.payload;
      const data = { participantId, registrationNo, name, rating, playerId: player ?? null, externalId: externalId ?? null };
      return [organizer('PARTICIPANT_REGISTERED', data), ...each(t, 'PARTICIPANT_REGISTERED', [participantId], () => data)];
    }
    case 'CheckInOpened': {
      const { closesAt } = e.payload;
      return [
        organizer('CHECK_IN_OPENED', { closesAt }),
        ...each(
          t,
          'CHECK_IN_OPENED',
          t.participants.map((p) => p.id),
          () => ({ closesAt }),
        ),
      ];
    }
    case 'RoundPaired':
      return roundPaired(t, e.payload);
    case 'ResultReported': {
      const { participantId, result } = e.payload;
      const data = { ...gameRef(result), reportedBy: participantId, result: resultData(result), recorded: Boolean(boardOfGame(t, result.gameId)?.board.results[result.gameId]) };
      return [organizer('RESULT_REPORTED', data), ...each(t, 'RESULT_REPORTED', seatsAt(t, result.gameId, participantId), () => data)];
    }
    case 'ResultDisputed': {
      const reports = Object.entries(t.reports?.[e.payload.gameId]?.reports ?? {}).map(([participantId, r]) => ({ participantId, result: resultData(r) }));
      const data = { ...gameRef(e.payload), reports };
      return [organizer('RESULT_DISPUTED', data), ...each(t, 'RESULT_DISPUTED', seatsAt(t, e.payload.gameId), () => data)];
    }
    case 'DisputeSettled': {
      const { acceptedReportOf, reason } = e.payload;
      const data = { ...gameRef(e.payload), acceptedReportOf, reason };
      return [organizer('DISPUTE_SETTLED', data), ...each(t, 'DISPUTE_SETTLED', seatsAt(t, e.payload.gameId), () => data)];
    }
    case 'TournamentFinished': {
      const { ranking } = e.payload;
      const rankOf = new Map(ranking.map((r) => [r.participantId, r.rank]));
      return [
        organizer('TOURNAMENT_FINISHED', { ranking: ranking.map(({ participantId, rank }) => ({ rank, ...nameOf(t, participantId) })) }),
        ...each(t, 'TOURNAMENT_FINISHED', [...rankOf.keys()], (id) => ({ rank: rankOf.get(id), of: ranking.length })),
      ];
    }
    default:
      return [];
  }
}

/**
 * A round paired: the organizer is told the round in short (its boards, games and byes); each
 * participant its own board: the games with its seat in each (a knockout match may have several),
 * and its opponents (one at a two-seat board: `opponent`), or its bye. A board whose other side
 * withdrew is a walkover: no game.
 */
function roundPaired(t: Roster, { round, boards, byes, rest }: Extract<TournamentEvent, { type: 'RoundPaired' }>['payload']): Told[] {
  const resting = [...byes, ...(rest ? [rest] : [])];
  const own = new Map<string, Record<string, unknown>>();
  for (const b of boards)
    for (const id of b.seats) {
      const games = b.games.map((g) => ({ gameId: g.gameId, seat: g.seats.indexOf(id) }));
      const opponents = b.seats.filter((s) => s !== id).map((s) => nameOf(t, s));
      const bye = b.seats.length === 1;
      own.set(id, {
        round,
        board: b.board,
        bye,
        walkover: b.walkover !== null && !bye,
        gameId: games[0]?.gameId ?? null,
        seat: games[0]?.seat ?? null,
        opponent: opponents.length === 1 ? opponents[0] : null,
        opponents,
        games,
      });
    }
  for (const id of resting) own.set(id, { round, board: null, bye: true, walkover: false, gameId: null, seat: null, opponent: null, opponents: [], games: [] });
  return [
    organizer('ROUND_PAIRED', { round, boards: boards.length, games: boards.reduce((n, b) => n + b.games.length, 0), byes: resting }),
    ...each(t, 'ROUND_PAIRED', [...own.keys()], (id) => own.get(id)!),
  ];
}

function nameOf(t: Roster, participantId: string): Named {
  const p = t.byId.get(participantId);
  return { participantId, name: p?.name ?? participantId, playerId: p?.player ?? null };
}

/** The participants at a game's board (but `except`). */
function seatsAt(t: Roster, gameId: string, except?: string): string[] {
  return (boardOfGame(t, gameId)?.board.seats ?? []).filter((s) => s !== except);
}

const gameRef = ({ round, board, gameId }: { round: number; board: number; gameId: string }) => ({ round, board, gameId });

/** A result as a notice gives it: each seat's participant, kind and game points, the ranking of the seats (best first), the record's game. */
function resultData(r: GameResultPayload) {
  return { seats: r.seats, ranking: r.ranking, recordGameId: r.record?.gameId ?? null };
}
