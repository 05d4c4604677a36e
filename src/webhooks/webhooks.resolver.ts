import { Args, Context, ID, Int, Mutation, Query, Resolver } from '@nestjs/graphql';
import { type GqlContext, tokenOf } from '../api/caller.js';
import { RegisterWebhookInput, toDeliveryPage, toWebhook, toWebhookSecret, Webhook, WebhookDeliveryPage, WebhookSecret } from './models.js';
import { WebhookService } from './webhook.service.js';
import { Needs } from '../api/scopes.js';

/** Webhook registrations and their delivery logs: the caller's token decides; the service does the rest. */
@Resolver()
export class WebhooksResolver {
  constructor(private readonly webhooks: WebhookService) {}

  @Needs('webhooks')
  @Mutation(() => WebhookSecret, {
    description: 'Registers a webhook for a game, a tournament, or (with neither) the seat or participant of the Bearer token; answers its signing secret, shown this once',
  })
  async registerWebhook(@Args('input', { description: 'Where, for what, and which events' }) input: RegisterWebhookInput, @Context() ctx: GqlContext): Promise<WebhookSecret> {
    return toWebhookSecret(await this.webhooks.register(tokenOf(ctx), input));
  }

  @Needs('webhooks')
  @Mutation(() => WebhookSecret, { description: 'Gives a webhook a new secret, shown this once: every delivery from now on (retries too) is signed with it' })
  async rotateWebhookSecret(@Args('id', { type: () => ID, description: "The webhook's id" }) id: string, @Context() ctx: GqlContext): Promise<WebhookSecret> {
    return toWebhookSecret(await this.webhooks.rotateSecret(tokenOf(ctx), id));
  }

  @Needs('webhooks')
  @Query(() => Webhook, { description: 'A webhook registration: where, for what, and whether its receiver is suspended' })
  async webhook(@Args('id', { type: () => ID, description: "The webhook's id" }) id: string, @Context() ctx: GqlContext): Promise<Webhook> {
    return toWebhook(await this.webhooks.get(tokenOf(ctx), id));
  }

  @Needs('webhooks')
  @Mutation(() => Webhook, { description: 'Resumes a webhook suspended after its receiver timed out too often in a row: its waiting messages are tried at once' })
  async resumeWebhook(@Args('id', { type: () => ID, description: "The webhook's id" }) id: string, @Context() ctx: GqlContext): Promise<Webhook> {
    return toWebhook(await this.webhooks.resume(tokenOf(ctx), id));
  }

  @Needs('webhooks')
  @Mutation(() => Boolean, { description: 'Deletes a webhook: nothing more is sent to it, and its delivery log is gone; answers true' })
  async deleteWebhook(@Args('id', { type: () => ID, description: "The webhook's id" }) id: string, @Context() ctx: GqlContext): Promise<boolean> {
    await this.webhooks.delete(tokenOf(ctx), id);
    return true;
  }

  @Needs('webhooks')
  @Query(() => WebhookDeliveryPage, { description: "A webhook's delivery log, newest first: each message, its attempts, last answer and next attempt" })
  async webhookDeliveries(
    @Args('id', { type: () => ID, description: "The webhook's id" }) id: string,
    @Args('first', { type: () => Int, nullable: true, defaultValue: 20, description: 'At most this many, 1 to 100' }) first: number | null,
    @Args('after', { type: () => String, nullable: true, description: "The messages older than this cursor (the previous page's endCursor)" }) after: string | null,
    @Context() ctx: GqlContext,
  ): Promise<WebhookDeliveryPage> {
    return toDeliveryPage(await this.webhooks.deliveries(tokenOf(ctx), id, first ?? 20, after ?? null));
  }
}
