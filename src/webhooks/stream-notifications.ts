import { type ConsequenceHandler, sha256Hex, type StoredEvent } from '../referee/index.js';
import type { Notifications } from './notifications.js';
import { type OutboxMessage, WEBHOOK_OUTBOX } from './outbox.js';

/** A notice of a stream that is not a game's (a challenge's, a tournament's), as the players' stream tells it: what it is, and the key that makes it once. */
export interface StreamNotice {
  dedupeKey: string;
  type: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

/** The message telling registration `webhookId` of `notice`, the `n`th notice at `seq` of the stream `streamId` (delivered in that order). */
export function noticeMessage(webhookId: string, streamId: string, seq: number, n: number, notice: StreamNotice): OutboxMessage {
  const at = notice.createdAt.toISOString();
  return {
    // Derived from the registration and the notice's own key: the same notice is never two messages.
    id: `msg_${sha256Hex(`${webhookId} ${notice.dedupeKey}`).slice(0, 32)}`,
    webhookId,
    gameId: streamId,
    seq,
    n,
    type: notice.type,
    payload: { type: notice.type, timestamp: at, data: notice.data },
    createdAt: at,
  };
}

/**
 * The webhooks' consequences of a stream that is not a game's (a challenge's, a tournament's):
 * the messages its notices make, stored with its events, apart from any game's append.
 */
export abstract class StreamNotifications<C> implements ConsequenceHandler<C> {
  readonly projection = WEBHOOK_OUTBOX;

  constructor(protected readonly notifications: Notifications) {}

  abstract rowsOf(before: C | null, after: C, events: readonly StoredEvent[]): Promise<OutboxMessage[]>;

  /** Stored apart from any game's append: the delivery worker looks at once. */
  stored(_before: C | null, _after: C, rows: readonly unknown[]): void {
    if (rows.length > 0) this.notifications.madeDue();
  }
}
