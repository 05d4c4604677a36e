import { Args, Context, ID, Int, Mutation, Parent, Query, ResolveField, Resolver, Subscription } from '@nestjs/graphql';
import { tokenOf, type GqlContext } from '../api/caller.js';
import { asGraphQLError } from '../api/error.filter.js';
import { Limits } from '../api/limits.js';
import { answerOrRejection, toGame, type GameModel } from '../api/mapping.js';
import { Game, type Rejection } from '../api/models.js';
import { EngineRegistry, RefereeService, type StoredEvent, TournamentService } from '../referee/index.js';
import { EventPageArgs, seqConnection, seqRange } from '../api/seq-pages.js';
import { requireWebSocket, tournamentEventStream } from '../api/subscriptions.js';
import { CreateTournamentInput } from './dto/create-tournament.input.js';
import { TournamentRulesetInput } from './dto/tournament-ruleset.input.js';
import { TournamentRulesetCheck } from './models/ruleset-check.js';
import { checkTournamentRuleset } from './ruleset-check.js';
import { ResultInput } from './dto/result.input.js';
import { RoundSettingsInput } from './dto/round-settings.input.js';
import { afterSeqOf, configInputOf, crosstableView, enteredResultOf, eventView, roundSettingsOf, standingsView, toTournament, tournamentConnection, type TournamentModel } from './mapping.js';
import { CreateTournamentResult, RegisterParticipantResult, TournamentConnection, TournamentEventConnection, TournamentPageArgs, TournamentResult } from './models/answers.js';
import { CrosstableRow, StandingRow, Tournament, TournamentEvent, TournamentGame } from './models/tournament.js';
import { Needs } from '../api/scopes.js';

const COMMAND_ID = 'Client command id: a retry with the same id and command answers the tournament as it is, and stores nothing twice';

/** The tournament API: every decision is the tournament service's; this maps arguments and answers. */
@Resolver(() => Tournament)
export class TournamentsResolver {
  constructor(
    private readonly service: TournamentService,
    private readonly registry: EngineRegistry,
  ) {}

  @Needs('read')
  @Query(() => Tournament, { description: "One tournament, its finished games' results recorded" })
  async tournament(@Args('id', { type: () => ID, description: 'The tournament id' }) id: string): Promise<TournamentModel> {
    return toTournament(await this.service.tournament(id));
  }

  @Limits({ page: { default: 20, max: 100 } })
  @Needs('read')
  @Query(() => TournamentConnection, { description: 'Tournaments, newest first (Relay cursor connection)' })
  async tournaments(@Args() args: TournamentPageArgs): Promise<TournamentConnection> {
    return tournamentConnection(await this.service.page(args.first ?? 20, args.after));
  }

  @Needs('read')
  @Query(() => TournamentRulesetCheck, {
    description:
      "Check a tournament's game (kind, format, and ruleset typed or as JSON) as createTournament would, without creating it: the ruleset every game would play and warnings, or why createTournament would refuse it",
  })
  tournamentRulesetCheck(@Args('input', { description: 'The kind, format and ruleset, as createTournament takes them' }) input: TournamentRulesetInput): TournamentRulesetCheck {
    return checkTournamentRuleset(this.registry, input);
  }

  @Limits({ creates: true })
  @Needs('tournaments')
  @Mutation(() => CreateTournamentResult, { complexity: 10, description: "Creates a tournament; answers it with the organizer's token" })
  async createTournament(@Args('input', { description: 'The game, the format and how it scores' }) input: CreateTournamentInput): Promise<typeof CreateTournamentResult> {
    return answerOrRejection(async () => {
      const { tournament, organizerToken } = await this.service.create(configInputOf(input));
      return { tournament: toTournament(tournament), organizerToken };
    });
  }

  @Needs('tournaments')
  @Mutation(() => RegisterParticipantResult, {
    description:
      "Registers a participant (the organizer's token; no token, or a player's key, when registration is open); answers its id and token. A player's participant has its games' seats bound to the player. Late entries: Swiss and tables, by the organizer.",
  })
  async registerParticipant(
    @Args('tournamentId', { type: () => ID, description: 'The tournament' }) tournamentId: string,
    @Args('name', { description: "The participant's display name" }) name: string,
    @Args('rating', { type: () => Int, nullable: true, description: "Its rating, 0 to 10000; omitted: its player's current rating in the tournament's pool, else 0 (unrated) (docs/ratings.md)" })
    rating: number | null,
    @Args('commandId', { type: () => String, nullable: true, description: COMMAND_ID }) commandId: string | null,
    @Args('player', { type: () => ID, nullable: true, description: "The organizer registers this player (an id); registering with a player's key registers that player" })
    player: string | null,
    @Context() ctx: GqlContext,
  ): Promise<typeof RegisterParticipantResult> {
    return answerOrRejection(async () => {
      const registered = await this.service.register(tournamentId, tokenOf(ctx), { name, rating, player }, commandId);
      return { tournament: toTournament(registered.tournament), participantId: registered.participantId, participantToken: registered.participantToken };
    });
  }

  @Needs('tournaments')
  @Mutation(() => TournamentResult, { description: "Withdraws a participant from the next round on (the organizer's token, or its own when self-withdrawal is allowed)" })
  async withdrawParticipant(
    @Args('tournamentId', { type: () => ID, description: 'The tournament' }) tournamentId: string,
    @Args('participantId', { type: () => ID, description: 'The participant' }) participantId: string,
    @Args('reason', { type: () => String, nullable: true, description: 'Why, at most 500 characters' }) reason: string | null,
    @Args('commandId', { type: () => String, nullable: true, description: COMMAND_ID }) commandId: string | null,
    @Context() ctx: GqlContext,
  ): Promise<TournamentModel | Rejection> {
    return this.answer(() => this.service.withdraw(tournamentId, tokenOf(ctx), participantId, reason, commandId));
  }

  @Needs('tournaments')
  @Mutation(() => TournamentResult, {
    description: "Checks a participant in while the tournament's check-in is open (its own token, or the organizer's): who has not checked in by the start is withdrawn before round 1",
  })
  async checkIn(
    @Args('tournamentId', { type: () => ID, description: 'The tournament' }) tournamentId: string,
    @Args('participantId', { type: () => ID, description: 'The participant' }) participantId: string,
    @Args('commandId', { type: () => String, nullable: true, description: COMMAND_ID }) commandId: string | null,
    @Context() ctx: GqlContext,
  ): Promise<TournamentModel | Rejection> {
    return this.answer(() => this.service.checkIn(tournamentId, tokenOf(ctx), participantId, commandId));
  }

  @Needs('tournaments')
  @Mutation(() => TournamentResult, { description: "Sets the organizer's settings for the next round to pair: manual pairings, byes, tables, absences, forbidden pairs, seeds" })
  async setPairings(
    @Args('tournamentId', { type: () => ID, description: 'The tournament' }) tournamentId: string,
    @Args('input', { description: 'The settings; they replace any set earlier for the round' }) input: RoundSettingsInput,
    @Args('commandId', { type: () => String, nullable: true, description: COMMAND_ID }) commandId: string | null,
    @Context() ctx: GqlContext,
  ): Promise<TournamentModel | Rejection> {
    return this.answer(() => this.service.setRoundSettings(tournamentId, tokenOf(ctx), roundSettingsOf(input), commandId));
  }

  // Not `creates`: the pairing charges every game it schedules to the caller's creation quota once they are known.
  @Needs('tournaments')
  @Mutation(() => TournamentResult, {
    complexity: 10,
    description: "Pairs the next round and schedules its games (the organizer's token); the previous round must have all its results. Each game counts against the caller's creation quota",
  })
  async pairRound(
    @Args('tournamentId', { type: () => ID, description: 'The tournament' }) tournamentId: string,
    @Args('round', { type: () => Int, nullable: true, description: 'The round expected to be paired (refused if it is not the next one); omitted: the next one' }) round: number | null,
    @Args('commandId', { type: () => String, nullable: true, description: COMMAND_ID }) commandId: string | null,
    @Context() ctx: GqlContext,
  ): Promise<TournamentModel | Rejection> {
    return this.answer(() => this.service.pairRound(tournamentId, tokenOf(ctx), round, commandId, ctx.creations));
  }

  @Needs('tournaments')
  @Mutation(() => TournamentResult, {
    description:
      "Records the organizer's result for a scheduled game (an over-the-board game, a forfeit, a correction) and closes the game with it; a record's game counts against the caller's creation quota",
  })
  async recordResult(
    @Args('tournamentId', { type: () => ID, description: 'The tournament' }) tournamentId: string,
    @Args('input', { description: 'The game and its result' }) input: ResultInput,
    @Args('commandId', { type: () => String, nullable: true, description: `${COMMAND_ID}; omitted: one derived from the result` }) commandId: string | null,
    @Context() ctx: GqlContext,
  ): Promise<TournamentModel | Rejection> {
    return this.answer(() => this.service.recordResult(tournamentId, tokenOf(ctx), enteredResultOf(input), commandId, ctx.creations));
  }

  @Needs('tournaments')
  @Mutation(() => TournamentResult, {
    description: "Finishes the tournament early (the organizer's token): its standings become final and its seed is revealed. The last round's last result finishes it by itself.",
  })
  async finishTournament(
    @Args('tournamentId', { type: () => ID, description: 'The tournament' }) tournamentId: string,
    @Args('commandId', { type: () => String, nullable: true, description: COMMAND_ID }) commandId: string | null,
    @Context() ctx: GqlContext,
  ): Promise<TournamentModel | Rejection> {
    return this.answer(() => this.service.finish(tournamentId, tokenOf(ctx), commandId));
  }

  @Needs('read')
  @Subscription(() => TournamentEvent, {
    name: 'tournamentEvents',
    description: "A tournament's events, starting after `afterSeq` (resumable); completes after TournamentFinished",
    // As gameEvents: over HTTP a subscription runs as a one-shot query that never subscribes; say why.
    resolve: (e: StoredEvent, _args: unknown, ctx: GqlContext | undefined) => {
      requireWebSocket(ctx);
      return eventView(e);
    },
  })
  async subscribeTournamentEvents(
    @Args('tournamentId', { type: () => ID, description: 'The tournament' }) tournamentId: string,
    @Args('afterSeq', { type: () => Int, nullable: true, defaultValue: 0, description: 'Start after this seq (0: from the first event); resume with the last seq received' }) afterSeq: number | null,
  ) {
    const after = afterSeqOf(afterSeq);
    await this.service.tournament(tournamentId);
    return tournamentEventStream(this.service, tournamentId, after);
  }

  /** A command's tournament, or its refusal as a Rejection. */
  private answer(command: () => Promise<Parameters<typeof toTournament>[0]>): Promise<TournamentModel | Rejection> {
    return answerOrRejection(async () => toTournament(await command()));
  }

  // -------------------------------------------------------------- Tournament fields

  @ResolveField(() => [StandingRow], { description: 'The standings (knockout: the placings so far)' })
  standings(
    @Parent() t: TournamentModel,
    @Args('afterRound', { type: () => Int, nullable: true, description: 'After this many rounds (0 to completedRounds); omitted: after the completed rounds' }) afterRound: number | null,
  ): StandingRow[] {
    try {
      return standingsView(t.live, this.service.standings(t.live, afterRound));
    } catch (err) {
      throw asGraphQLError(err);
    }
  }

  @ResolveField(() => [CrosstableRow], { description: "Every participant's rounds, by registration number" })
  crosstable(
    @Parent() t: TournamentModel,
    @Args('afterRound', { type: () => Int, nullable: true, description: 'Rounds 1 to this one (at most completedRounds); omitted: the completed rounds' }) afterRound: number | null,
  ): CrosstableRow[] {
    try {
      return crosstableView(t.live, afterRound);
    } catch (err) {
      throw asGraphQLError(err);
    }
  }

  @ResolveField(() => TournamentEventConnection, {
    description:
      "The tournament's hash-chained events, oldest first, as a Relay cursor connection whose cursor is the seq: `first` after a cursor pages forwards (1000 by default), `last` before a cursor pages backwards (not both)",
  })
  async events(@Parent() t: TournamentModel, @Args() page: EventPageArgs): Promise<TournamentEventConnection> {
    try {
      const range = seqRange(page, t.version);
      const events = range.count > 0 ? await this.service.events(t.id, range.afterSeq, range.afterSeq + range.count) : [];
      return seqConnection(events.map(eventView), range, t.version);
    } catch (err) {
      throw asGraphQLError(err);
    }
  }
}

@Resolver(() => TournamentGame)
export class TournamentGameResolver {
  constructor(private readonly referee: RefereeService) {}

  @ResolveField(() => Game, { description: 'The game itself, as the `game` query answers it (its seat-specific fields for the caller)' })
  async game(@Parent() scheduled: TournamentGame): Promise<GameModel> {
    try {
      return toGame(await this.referee.game(scheduled.gameId));
    } catch (err) {
      throw asGraphQLError(err);
    }
  }
}
