import { type StoredEvent, type TournamentState, tournamentNoticesOf } from '../referee/index.js';
import type { Notifications, Registration } from './notifications.js';
import type { OutboxMessage } from './outbox.js';
import { noticeMessage, StreamNotifications } from './stream-notifications.js';

/** Where a tournament's registrations are found (WebhookStore). */
export interface TournamentRegistrations {
  /** The tournament's own registrations (its organizer's and its participants'), and these players'. */
  tournamentRegistrations(tournamentId: string, playerIds: readonly string[]): Promise<Registration[]>;
}

/**
 * The webhooks' consequences of the tournaments' appends: each notice a tournament's events make
 * (tournament-notices.ts: registered, check-in opened, round paired, a report, a dispute, its
 * settlement, the final standings) is a message to the registrations it is for that ask for it:
 * the organizer's notices to the tournament's registrations made with the organizer's token, a
 * participant's to those made with its own token and to its player's. Stored with the events, in
 * one statement whatever the round's size; a tournament's messages are delivered in order, as a
 * game's are (the outbox's game id is the tournament's).
 */
export class TournamentNotifications extends StreamNotifications<TournamentState> {
  constructor(
    private readonly store: TournamentRegistrations,
    notifications: Notifications,
  ) {
    super(notifications);
  }

  async rowsOf(_before: TournamentState | null, tournament: TournamentState, events: readonly StoredEvent[]): Promise<OutboxMessage[]> {
    if (!this.notifications.mayNotify()) return [];
    const notices = tournamentNoticesOf(tournament, events);
    if (notices.length === 0) return [];
    const players = [...new Set(notices.flatMap((n) => (n.playerId ? [n.playerId] : [])))];
    const registrations = await this.store.tournamentRegistrations(tournament.tournamentId, players);
    if (registrations.length === 0) return [];
    // Each notice looks up its own registrations: a round of 1,000 participants is not 1,000 scans of them all.
    const byHolder = new Map<string, Registration[]>();
    for (const r of registrations) {
      const holder = r.playerId !== null ? `player ${r.playerId}` : `participant ${r.participantId ?? ''}`;
      byHolder.set(holder, [...(byHolder.get(holder) ?? []), r]);
    }
    return notices.flatMap((notice) => {
      const told = [...(byHolder.get(`participant ${notice.participantId ?? ''}`) ?? []), ...(notice.playerId ? (byHolder.get(`player ${notice.playerId}`) ?? []) : [])];
      return told.filter((r) => r.events.some((e) => e === notice.event)).map((r) => noticeMessage(r.id, tournament.tournamentId, notice.seq, notice.n, notice));
    });
  }
}
