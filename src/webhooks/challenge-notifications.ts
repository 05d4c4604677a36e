import { type ChallengeChange, type ConsequenceHandler, sha256Hex, type StoredEvent } from '../referee/index.js';
import { CHALLENGE_TYPES, type Notifications, type Registration } from './notifications.js';
import { type OutboxMessage, WEBHOOK_OUTBOX } from './outbox.js';

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
export class ChallengeNotifications implements ConsequenceHandler<ChallengeChange> {
  readonly projection = WEBHOOK_OUTBOX;

  constructor(
    private readonly store: PlayerRegistrations,
    private readonly notifications: Notifications,
  ) {}

  async rowsOf(_before: ChallengeChange | null, { challenge, notices }: ChallengeChange, _events: readonly StoredEvent[]): Promise<OutboxMessage[]> {
    if (notices.length === 0 || !this.notifications.mayNotify()) return [];
    const registrations = await this.store.playerRegistrations([...new Set(notices.map((n) => n.playerId))]);
    return notices.flatMap((notice, n) =>
      registrations
        .filter((r) => r.playerId === notice.playerId && r.events.some((e) => e === EVENT_OF.get(notice.type)))
        .map((r): OutboxMessage => {
          const at = notice.createdAt.toISOString();
          return {
            // Derived from the registration and the notice's own key: the same notice is never two messages.
            id: `msg_${sha256Hex(`${r.id} ${notice.dedupeKey}`).slice(0, 32)}`,
            webhookId: r.id,
            gameId: challenge.challengeId,
            seq: challenge.version,
            n,
            type: notice.type,
            payload: { type: notice.type, timestamp: at, data: notice.data },
            createdAt: at,
          };
        }),
    );
  }

  /** Stored apart from any game's append: the delivery worker looks at once. */
  stored(_before: ChallengeChange | null, _after: ChallengeChange, rows: readonly unknown[]): void {
    if (rows.length > 0) this.notifications.madeDue();
  }
}
