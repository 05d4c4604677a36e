import { Args, Context, ID, Mutation, Resolver } from '@nestjs/graphql';
import { tokenOf, type GqlContext } from '../api/caller.js';
import { answerOrRejection } from '../api/mapping.js';
import type { Rejection } from '../api/models.js';
import { Needs } from '../api/scopes.js';
import { TournamentService } from '../referee/index.js';
import { ResultInput } from './dto/result.input.js';
import { enteredResultOf, toTournament, type TournamentModel } from './mapping.js';
import { TournamentResult } from './models/answers.js';
import { ParticipantRowInput, type ParticipantsRefused, type ParticipantsRegistered, RegisterParticipantsResult } from './models/bulk.js';

const COMMAND_ID = 'Client command id: a retry with the same id and command answers the tournament as it is, and stores nothing twice';

/**
 * Participants' reports and the organizer's settlements (docs/rules/tournaments.md R3.10, R3.11),
 * and bulk registration (docs/organizing.md): the tournament service decides, this maps.
 */
@Resolver()
export class TournamentReportsResolver {
  constructor(private readonly service: TournamentService) {}

  @Needs('tournaments')
  @Mutation(() => TournamentResult, {
    description:
      "A participant reports its game's result (its own token; the tournament must allow playerReports), with an optional record, checked as recordResult checks the organizer's. Agreeing reports record the result and close the game; disagreeing ones open a dispute. A record's game counts against the caller's creation quota",
  })
  async reportResult(
    @Args('tournamentId', { type: () => ID, description: 'The tournament' }) tournamentId: string,
    @Args('input', { description: 'The game and its result (`correction` does not apply)' }) input: ResultInput,
    @Args('commandId', { type: () => String, nullable: true, description: `${COMMAND_ID}; omitted: one derived from the report` }) commandId: string | null,
    @Context() ctx: GqlContext,
  ): Promise<TournamentModel | Rejection> {
    return answerOrRejection(async () => toTournament(await this.service.reportResult(tournamentId, tokenOf(ctx), enteredResultOf(input), commandId, ctx.creations)));
  }

  @Needs('tournaments')
  @Mutation(() => TournamentResult, {
    description: "The organizer settles a disputed game by accepting one participant's report, with a reason (R3.11); the game is closed with it. To enter another result, recordResult with a reason",
  })
  async settleDispute(
    @Args('tournamentId', { type: () => ID, description: 'The tournament' }) tournamentId: string,
    @Args('gameId', { type: () => ID, description: 'The disputed game' }) gameId: string,
    @Args('acceptReportOf', { type: () => ID, description: 'The participant whose report is accepted' }) acceptReportOf: string,
    @Args('reason', { description: 'Why, at most 500 characters (kept in the stream)' }) reason: string,
    @Args('commandId', { type: () => String, nullable: true, description: COMMAND_ID }) commandId: string | null,
    @Context() ctx: GqlContext,
  ): Promise<TournamentModel | Rejection> {
    return answerOrRejection(async () => toTournament(await this.service.settleDispute(tournamentId, tokenOf(ctx), gameId, acceptReportOf, reason, commandId)));
  }

  @Needs('tournaments')
  @Mutation(() => RegisterParticipantsResult, {
    description:
      "Registers many participants at once (the organizer's token), all or none: every row registered with its token, or every refused row listed by its number, code and message with nothing stored. CSV: POST /api/tournaments/{id}/participants",
  })
  async registerParticipants(
    @Args('tournamentId', { type: () => ID, description: 'The tournament' }) tournamentId: string,
    @Args('participants', { type: () => [ParticipantRowInput], description: 'The rows, 1 to 1000' }) participants: ParticipantRowInput[],
    @Args('commandId', { type: () => String, nullable: true, description: COMMAND_ID }) commandId: string | null,
    @Context() ctx: GqlContext,
  ): Promise<ParticipantsRegistered | ParticipantsRefused | Rejection> {
    return answerOrRejection(async () => {
      const answer = await this.service.registerMany(tournamentId, tokenOf(ctx), participants, commandId);
      if ('refusals' in answer) return { rows: answer.refusals };
      return { tournament: toTournament(answer.tournament), participants: answer.registered } as ParticipantsRegistered;
    });
  }
}
