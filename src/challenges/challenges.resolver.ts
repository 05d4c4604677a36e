import { Args, Context, ID, Mutation, Query, Resolver } from '@nestjs/graphql';
import { type GqlContext, holderOf } from '../api/caller.js';
import { Limits } from '../api/limits.js';
import { answerOrRejection, timeControlOf, toGame } from '../api/mapping.js';
import type { Rejection } from '../api/models.js';
import { Needs } from '../api/scopes.js';
import { normaliseRuleset } from '../games/index.js';
import { ChallengeService, KeyDirectory, RefereeService } from '../referee/index.js';
import { toChallenge, toChallengeConnection } from './mapping.js';
import { AcceptChallengeResult, Challenge, ChallengeConnection, ChallengeListArgs, ChallengePageArgs, ChallengeResult, ChallengeSeat, IssueChallengeInput } from './models.js';

const PAGE = { default: 20, max: 100 };

/** Challenges between players (docs/players.md, "Challenges"): the challenge service decides, this maps. Every operation needs a player's key. */
@Resolver(() => Challenge)
export class ChallengesResolver {
  constructor(
    private readonly challenges: ChallengeService,
    private readonly referee: RefereeService,
    private readonly directory: KeyDirectory,
  ) {}

  @Limits({ creates: true })
  @Needs('play')
  @Mutation(() => ChallengeResult, {
    description: "The caller's player challenges another player (`to`), or anyone (an open challenge): the game's kind, ruleset and clock are checked now, as createGame checks them",
  })
  async issueChallenge(@Args('input', { description: 'The game offered, to whom, for how long' }) input: IssueChallengeInput, @Context() ctx: GqlContext): Promise<typeof ChallengeResult> {
    return this.answer(async () =>
      this.challenges.issue(await holderOf(ctx, this.directory), {
        to: input.to ?? null,
        kind: input.kind,
        ruleset: normaliseRuleset(input.kind, input.ruleset),
        timeControl: timeControlOf(input.timeControl),
        seat: input.seat ?? ChallengeSeat.RANDOM,
        message: input.message ?? null,
        expiresInSeconds: input.expiresInSeconds ?? null,
        rated: input.rated === true,
      }),
    );
  }

  @Limits({ creates: true })
  @Needs('play')
  @Mutation(() => AcceptChallengeResult, {
    description:
      "Accepts a challenge to the caller's player (or an open one): creates the game, both seats bound to the two players, and answers it. Of two acceptances of one open challenge, one wins; the other is refused with CHALLENGE_CLOSED. The acceptor's retry answers the same game",
  })
  async acceptChallenge(@Args('id', { type: () => ID, description: 'The challenge' }) id: string, @Context() ctx: GqlContext): Promise<typeof AcceptChallengeResult> {
    return answerOrRejection(async () => {
      const { challenge, game } = await this.challenges.accept(await holderOf(ctx, this.directory), id);
      return { challenge: await toChallenge(this.challenges, this.referee, challenge), game: toGame(game) };
    });
  }

  @Needs('play')
  @Mutation(() => ChallengeResult, { description: "Declines a challenge to the caller's player, with a reason if given" })
  async declineChallenge(
    @Args('id', { type: () => ID, description: 'The challenge' }) id: string,
    @Args('reason', { type: () => String, nullable: true, description: 'Why, for the challenger: at most 500 characters' }) reason: string | null,
    @Context() ctx: GqlContext,
  ): Promise<typeof ChallengeResult> {
    return this.answer(async () => this.challenges.decline(await holderOf(ctx, this.directory), id, reason ?? null));
  }

  @Needs('play')
  @Mutation(() => ChallengeResult, { description: "Cancels the caller's own challenge while it is open" })
  async cancelChallenge(@Args('id', { type: () => ID, description: 'The challenge' }) id: string, @Context() ctx: GqlContext): Promise<typeof ChallengeResult> {
    return this.answer(async () => this.challenges.cancel(await holderOf(ctx, this.directory), id));
  }

  @Needs('read')
  @Query(() => Challenge, { description: "One challenge: the caller's player's (as challenger or challenged), or an open one" })
  async challenge(@Args('id', { type: () => ID, description: 'The challenge' }) id: string, @Context() ctx: GqlContext): Promise<Challenge> {
    return toChallenge(this.challenges, this.referee, await this.challenges.challenge(await holderOf(ctx, this.directory), id));
  }

  @Needs('read')
  @Limits({ page: PAGE })
  @Query(() => ChallengeConnection, { description: "The challenges to the caller's player, newest first" })
  incomingChallenges(@Args() args: ChallengeListArgs, @Context() ctx: GqlContext): Promise<ChallengeConnection> {
    return this.page(ctx, 'incoming', args);
  }

  @Needs('read')
  @Limits({ page: PAGE })
  @Query(() => ChallengeConnection, { description: "The challenges the caller's player issued, newest first" })
  outgoingChallenges(@Args() args: ChallengeListArgs, @Context() ctx: GqlContext): Promise<ChallengeConnection> {
    return this.page(ctx, 'outgoing', args);
  }

  @Needs('read')
  @Limits({ page: PAGE })
  @Query(() => ChallengeConnection, { description: 'The open challenges any player may accept (not expired), newest first' })
  openChallenges(@Args() args: ChallengePageArgs, @Context() ctx: GqlContext): Promise<ChallengeConnection> {
    return this.page(ctx, 'open', { ...args, status: null });
  }

  private async page(ctx: GqlContext, which: 'incoming' | 'outgoing' | 'open', args: ChallengeListArgs): Promise<ChallengeConnection> {
    const page = await this.challenges.page(await holderOf(ctx, this.directory), which, args);
    return toChallengeConnection(this.challenges, this.referee, page);
  }
  /** A command's challenge, or its refusal as a Rejection. */
  private answer(command: () => Promise<Parameters<typeof toChallenge>[2]>): Promise<Challenge | Rejection> {
    return answerOrRejection(async () => toChallenge(this.challenges, this.referee, await command()));
  }
}
