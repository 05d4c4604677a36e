import { Module } from '@nestjs/common';
import { Clock } from '../referee/application/clock.js';
import { Notifications } from '../referee/application/notifications.js';
import { DeliveryWorker } from './delivery-worker.js';
import { WebhookStore } from './webhook-store.js';
import { WebhookService } from './webhook.service.js';
import { WebhooksResolver } from './webhooks.resolver.js';

/**
 * Signed notifications: registrations (GraphQL), the notifications the referee's appends store
 * in their outbox, and the worker that delivers them. DatabaseService, the referee and the
 * clock come from their global modules.
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
export class WebhooksModule {}
