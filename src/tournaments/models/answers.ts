import { ArgsType, Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { orRejection, PageInfo } from '../../api/models.js';
import { Tournament, TournamentSummary } from './tournament.js';

@ObjectType({ description: "The tournament created, with the organizer's token" })
export class TournamentCreated {
  @Field(() => Tournament, { description: 'The new tournament' }) tournament: Tournament;
  @Field({ description: 'Secret, shown only here: send it as "Authorization: Bearer <token>" to run the tournament' }) organizerToken: string;
}

@ObjectType({ description: 'The participant registered, with its token' })
export class ParticipantRegistered {
  @Field(() => Tournament, { description: 'The tournament with the participant' }) tournament: Tournament;
  @Field(() => ID, { description: "The new participant's id" }) participantId: string;
  @Field({ description: 'Secret, shown only here: send it as "Authorization: Bearer <token>" to play the participant\'s games (and withdraw it, if allowed)' })
  participantToken: string;
}

export const CreateTournamentResult = orRejection('CreateTournamentResult', 'The tournament created (TournamentCreated), or why not, nothing stored (Rejection)', () => TournamentCreated);
export const RegisterParticipantResult = orRejection(
  'RegisterParticipantResult',
  'The participant registered (ParticipantRegistered), or why not, nothing changed (Rejection)',
  () => ParticipantRegistered,
);
export const TournamentResult = orRejection(
  'TournamentResult',
  "The tournament as the organizer's or participant's command left it (Tournament), or why not, nothing changed (Rejection)",
  () => Tournament,
);

@ObjectType({ description: 'A tournament of a page, with its cursor' })
export class TournamentEdge {
  @Field({ description: 'Opaque: pass it as `after`' }) cursor: string;
  @Field(() => TournamentSummary, { description: 'The tournament' }) node: TournamentSummary;
}

@ObjectType({ description: 'A page of tournaments, newest first (Relay cursor connection)' })
export class TournamentConnection {
  @Field(() => [TournamentEdge], { description: "The page's tournaments with their cursors" }) edges: TournamentEdge[];
  @Field(() => [TournamentSummary], { description: "The page's tournaments (the edges' nodes)" }) nodes: TournamentSummary[];
  @Field(() => PageInfo, { description: 'Where the page ends, and whether more tournaments follow it (forwards only: hasPreviousPage is false)' }) pageInfo: PageInfo;
}

/** A page of the tournaments, newest first: forwards from a cursor, as the challenges' lists page. */
@ArgsType()
export class TournamentPageArgs {
  @Field(() => Int, { nullable: true, description: 'At most 100; 20 by default' }) first: number | null;
  @Field(() => String, { nullable: true, description: 'A cursor: the tournaments after it' }) after: string | null;
}
