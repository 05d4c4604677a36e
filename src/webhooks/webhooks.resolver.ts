import { Args, Context, ID, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import { type GqlContext, holderOf, tokenOf } from '../api/caller.js';
import { answerOrRejection } from '../api/mapping.js';
import type { Rejection } from '../api/models.js';
import { Needs } from '../api/scopes.js';
import { KeyDirectory } from '../referee/index.js';
import {
  DeleteWebhookResult,
  RegisterWebhookInput,
  toDelivery,
  toDeliveryConnection,
  toWebhook,
  toWebhookSecret,
  Webhook,
  WebhookDeliveryConnection,
  WebhookDeliveryResult,
  WebhookResult,
  WebhookSecretResult,
} from './models.js';
import { type WebhookCaller, WebhookService } from './webhook.service.js';

const WEBHOOK_ID = { type: () => ID, description: "The webhook's id" };

/** Webhook registrations and their delivery logs: the caller's token (or key) decides; the service does the rest. Mutations answer a refusal as a Rejection. */
@Resolver()
export class WebhooksResolver {
  constructor(
    private readonly webhooks: WebhookService,
    private readonly keys: KeyDirectory,
  ) {}

  @Needs('webhooks')
  @Mutation(() => WebhookSecretResult, {
    description:
      "Registers a webhook for a game, a tournament, a player (a player's key, or an app's with playerId), or (with none) the seat or participant of the Bearer token; answers its signing secret, shown this once",
  })
  async registerWebhook(@Args('input', { description: 'Where, for what, and which events' }) input: RegisterWebhookInput, @Context() ctx: GqlContext): Promise<typeof WebhookSecretResult> {
    return this.answer(ctx, async (caller) => toWebhookSecret(await this.webhooks.register(caller, input)));
  }

  @Needs('webhooks')
  @Mutation(() => WebhookSecretResult, { description: 'Gives a webhook a new secret, shown this once: every delivery from now on (retries too) is signed with it' })
  async rotateWebhookSecret(@Args('id', WEBHOOK_ID) id: string, @Context() ctx: GqlContext): Promise<typeof WebhookSecretResult> {
    return this.answer(ctx, async (caller) => toWebhookSecret(await this.webhooks.rotateSecret(caller, id)));
  }

  @Needs('webhooks')
  @Query(() => Webhook, { description: 'A webhook registration: where, for what, and whether its receiver is suspended' })
  async webhook(@Args('id', WEBHOOK_ID) id: string, @Context() ctx: GqlContext): Promise<Webhook> {
    return toWebhook(await this.webhooks.get(await this.callerOf(ctx), id));
  }

  @Needs('webhooks')
  @Mutation(() => WebhookResult, { description: 'Resumes a webhook suspended after its receiver timed out too often in a row: its waiting messages are tried at once' })
  async resumeWebhook(@Args('id', WEBHOOK_ID) id: string, @Context() ctx: GqlContext): Promise<typeof WebhookResult> {
    return this.answer(ctx, async (caller) => toWebhook(await this.webhooks.resume(caller, id)));
  }

  @Needs('webhooks')
  @Mutation(() => WebhookDeliveryResult, {
    description:
      'Sends one message of a webhook again now, with the same webhook-id: one waiting for its next attempt, given up, or delivered already. A suspended webhook sends nothing until resumeWebhook',
  })
  async redeliverWebhookMessage(
    @Args('id', WEBHOOK_ID) id: string,
    @Args('messageId', { type: () => ID, description: "The message's id (WebhookDelivery.messageId, the webhook-id header)" }) messageId: string,
    @Context() ctx: GqlContext,
  ): Promise<typeof WebhookDeliveryResult> {
    return this.answer(ctx, async (caller) => toDelivery(await this.webhooks.redeliver(caller, id, messageId)));
  }

  @Needs('webhooks')
  @Mutation(() => DeleteWebhookResult, { description: 'Deletes a webhook: nothing more is sent to it, and its delivery log is gone' })
  async deleteWebhook(@Args('id', WEBHOOK_ID) id: string, @Context() ctx: GqlContext): Promise<typeof DeleteWebhookResult> {
    return this.answer(ctx, async (caller) => {
      await this.webhooks.delete(caller, id);
      return { id };
    });
  }

  @Needs('webhooks')
  @Query(() => WebhookDeliveryConnection, { description: "A webhook's delivery log, newest first: each message, its attempts, last answer and next attempt" })
  async webhookDeliveries(
    @Args('id', WEBHOOK_ID) id: string,
    @Args('first', { type: () => Int, nullable: true, defaultValue: 20, description: 'At most this many, 1 to 100' }) first: number | null,
    @Args('after', { type: () => String, nullable: true, description: "The messages older than this cursor (the previous page's pageInfo.endCursor)" }) after: string | null,
    @Context() ctx: GqlContext,
  ): Promise<WebhookDeliveryConnection> {
    return toDeliveryConnection(await this.webhooks.deliveries(await this.callerOf(ctx), id, first ?? 20, after ?? null));
  }

  private async callerOf(ctx: GqlContext): Promise<WebhookCaller> {
    return { token: tokenOf(ctx), holder: await holderOf(ctx, this.keys) };
  }

  private answer<T extends object>(ctx: GqlContext, command: (caller: WebhookCaller) => Promise<T>): Promise<T | Rejection> {
    return answerOrRejection(async () => command(await this.callerOf(ctx)));
  }
}
