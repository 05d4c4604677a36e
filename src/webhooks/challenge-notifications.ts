import type { ChallengeChange, StoredEvent } from '../referee/index.js';
import { CHALLENGE_TYPES, type Notifications, type Registration } from './notifications.js';
import type { OutboxMessage } from './outbox.js';
import { noticeMessage, StreamNotifications } from './stream-notifications.js';

const EVENT_OF = new Map(Object.entries(CHALLENGE_TYPES).map(([event, type]) => [type as string, event as keyof typeof CHALLENGE_TYPES]));

/** Where the players' registrations are found (WebhookStore). */
export interface PlayerRegistrations {
  playerRegistrations(playerIds: readonly string[]): Promise<Registration[]>;
}

/**
 * The webhooks' consequences of the challenges' appends: each notice a challenge's events make
 * for a player (received, accepted, declined, cancelled: the player's stream's) is a message to
 * the player's registrations that ask for it, stored with the events. A challenge's messages are
 * delivered in order, as a game's are (the outbox's game id is the challenge's).
 */
export class ChallengeNotifications extends StreamNotifications<ChallengeChange> {
  constructor(
    private readonly store: PlayerRegistrations,
    notifications: Notifications,
  ) {
    super(notifications);
  }

  async rowsOf(_before: ChallengeChange | null, { challenge, notices }: ChallengeChange, _events: readonly StoredEvent[]): Promise<OutboxMessage[]> {
    if (notices.length === 0 || !this.notifications.mayNotify()) return [];
    const registrations = await this.store.playerRegistrations([...new Set(notices.map((n) => n.playerId))]);
    return notices.flatMap((notice, n) =>
      registrations
        .filter((r) => r.playerId === notice.playerId && r.events.some((e) => e === EVENT_OF.get(notice.type)))
        .map((r) => noticeMessage(r.id, challenge.challengeId, challenge.version, n, notice)),
    );
  }
}
