import { Args, Context, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { type GqlContext, holderOf } from '../api/caller.js';
import { Limits } from '../api/limits.js';
import { answerOrRejection } from '../api/mapping.js';
import { Needs, Public } from '../api/scopes.js';
import { AccountService, KeyDirectory } from '../referee/index.js';
import { CreateAppResult, CreatePlayerResult, IssuedKeyResult, Key, Me, RevokeKeyResult, Scope, issuedModel, keyModel, playerModel, appModel, scopesOf } from './models.js';
import { PlayerAccounts } from './player-accounts.js';

const PLAYER_ID = "An app's key: the player it created whose keys these are; omitted: the caller's own account";

/** Players, apps and their keys (docs/players.md): the account service decides, this maps. */
@Resolver()
export class PlayersResolver {
  constructor(
    private readonly accounts: AccountService,
    private readonly directory: KeyDirectory,
    private readonly callers: PlayerAccounts,
  ) {}

  @Query(() => Me, { description: "The caller's player or app and its keys, as the Bearer key says (UNAUTHORIZED without one)" })
  @Public()
  async me(@Context() ctx: GqlContext): Promise<Me> {
    return this.callers.of(await holderOf(ctx, this.directory));
  }

  @Query(() => [Key], { description: "The keys of the caller's account, or (an app's key with scope PLAYERS) of a player it created; revoked ones included, oldest first" })
  @Public()
  async keys(@Args('playerId', { type: () => ID, nullable: true, description: PLAYER_ID }) playerId: string | null, @Context() ctx: GqlContext): Promise<Key[]> {
    const account = await this.accounts.managed(await holderOf(ctx, this.directory), playerId);
    return (await this.accounts.keys(account.accountId)).map(keyModel);
  }

  // Anyone may create a player for themselves; an app's key (scope `players`) creates one the app manages.
  @Limits({ creates: true })
  @Mutation(() => CreatePlayerResult, { description: "Creates a player and its first key (shown once). With an app's key (scope PLAYERS), the player is the app's and may carry its externalId" })
  @Needs('players')
  async createPlayer(
    @Args('name', { description: 'Its display name, 1-100 characters' }) name: string,
    @Args('externalId', { type: () => String, nullable: true, description: "The app's own id for the player (unique per app; an app's key only)" }) externalId: string | null,
    @Args('scopes', { type: () => [Scope], nullable: true, description: "The first key's scopes; omitted: every scope a player's key may carry" }) scopes: Scope[] | null,
    @Context() ctx: GqlContext,
  ): Promise<typeof CreatePlayerResult> {
    return answerOrRejection(async () => {
      const { account, key } = await this.accounts.registerPlayer({ name, externalId: externalId ?? null, scopes: scopesOf(scopes) }, await holderOf(ctx, this.directory));
      return { player: playerModel(account), key: issuedModel(key) };
    });
  }

  // Anyone may create an app, as anyone may make a personal token elsewhere: an app is only a holder of keys.
  @Limits({ creates: true })
  @Mutation(() => CreateAppResult, { description: "Creates an app (an integrator's account) and its first key (shown once)" })
  @Public()
  async createApp(
    @Args('name', { description: 'Its display name, 1-100 characters' }) name: string,
    @Args('scopes', { type: () => [Scope], nullable: true, description: "The first key's scopes; omitted: every scope" }) scopes: Scope[] | null,
  ): Promise<typeof CreateAppResult> {
    return answerOrRejection(async () => {
      const { account, key } = await this.accounts.registerApp({ name, scopes: scopesOf(scopes) });
      return { app: appModel(account), key: issuedModel(key) };
    });
  }

  @Mutation(() => IssuedKeyResult, { description: "Issues another key for the caller's account (or, with an app's key, for a player it created), with no scope the caller's key lacks. Shown once" })
  @Public()
  async issueKey(
    @Args('scopes', { type: () => [Scope], nullable: true, description: "The new key's scopes; omitted: the caller key's own (what the account may carry)" }) scopes: Scope[] | null,
    @Args('playerId', { type: () => ID, nullable: true, description: PLAYER_ID }) playerId: string | null,
    @Context() ctx: GqlContext,
  ): Promise<typeof IssuedKeyResult> {
    return answerOrRejection(async () => issuedModel(await this.accounts.issueKey(await holderOf(ctx, this.directory), scopesOf(scopes), playerId)));
  }

  @Mutation(() => IssuedKeyResult, { description: 'Gives a key a new secret (shown once): the old secret is refused from the next request on, everywhere' })
  @Public()
  async rotateKey(
    @Args('keyId', { type: () => ID, description: 'The key' }) keyId: string,
    @Args('playerId', { type: () => ID, nullable: true, description: PLAYER_ID }) playerId: string | null,
    @Context() ctx: GqlContext,
  ): Promise<typeof IssuedKeyResult> {
    return answerOrRejection(async () => issuedModel(await this.accounts.rotateKey(await holderOf(ctx, this.directory), keyId, playerId)));
  }

  @Mutation(() => RevokeKeyResult, { description: 'Revokes a key: refused from the next request on, everywhere' })
  @Public()
  async revokeKey(
    @Args('keyId', { type: () => ID, description: 'The key' }) keyId: string,
    @Args('playerId', { type: () => ID, nullable: true, description: PLAYER_ID }) playerId: string | null,
    @Context() ctx: GqlContext,
  ): Promise<typeof RevokeKeyResult> {
    return answerOrRejection(async () => keyModel(await this.accounts.revokeKey(await holderOf(ctx, this.directory), keyId, playerId)));
  }
}
