import { Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ChallengeConsequences, Clock, GameConsequences, LowTimeListeners, ProjectionWriters, TournamentConsequences } from '../referee/index.js';
import { ChallengeNotifications } from './challenge-notifications.js';
import { DeliveryWorker } from './delivery-worker.js';
import { Notifications } from './notifications.js';
import { OUTBOX_SQL } from './outbox.js';
import { TournamentNotifications } from './tournament-notifications.js';
import { WebhookStore } from './webhook-store.js';
import { WebhookService } from './webhook.service.js';
import { WebhooksResolver } from './webhooks.resolver.js';

/**
 * Signed notifications: registrations (GraphQL), the messages the games' appends cause (the
 * outbox, a projection of the appends: its writer goes into the event store's statement, its
 * consequence handlers into the games', the challenges' and the tournaments' consequences), the low-time warnings the deadline worker
 * asks for, and the worker that delivers the messages. DatabaseService and the referee's
 * registries come from their global modules; the referee knows nothing of webhooks.
 */
@Module({
  providers: [
    WebhookStore,
    {
      provide: Notifications,
      useFactory: (store: WebhookStore, clock: Clock) => new Notifications(store, clock),
      inject: [WebhookStore, Clock],
    },
    WebhookService,
    DeliveryWorker,
    WebhooksResolver,
  ],
})
export class WebhooksModule implements OnModuleInit, OnModuleDestroy {
  private unregister: (() => void)[] = [];

  constructor(
    private readonly writers: ProjectionWriters,
    private readonly consequences: GameConsequences,
    private readonly lowTime: LowTimeListeners,
    private readonly notifications: Notifications,
    private readonly challenges: ChallengeConsequences,
    private readonly tournaments: TournamentConsequences,
    private readonly store: WebhookStore,
  ) {}

  /**
   * After the providers' own (the delivery worker has read the registrations): the appends and
   * the deadline worker tell the notifications from now on. The writer stays while the store
   * lives: an append in flight may carry messages derived before the handler went.
   */
  onModuleInit(): void {
    this.writers.register(OUTBOX_SQL);
    this.unregister = [
      this.consequences.register(this.notifications),
      this.lowTime.register(this.notifications),
      this.challenges.register(new ChallengeNotifications(this.store, this.notifications)),
      this.tournaments.register(new TournamentNotifications(this.store, this.notifications)),
    ];
  }

  onModuleDestroy(): void {
    for (const done of this.unregister) done();
    this.unregister = [];
  }
}
