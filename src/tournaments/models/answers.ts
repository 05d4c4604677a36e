import { ArgsType, Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { type Connection, connectionOf } from '../../api/connection.js';
import { orRejection } from '../../api/models.js';
import { Tournament, TournamentEvent, TournamentSummary } from './tournament.js';

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

export const TournamentConnection = connectionOf(TournamentSummary, 'Tournament', {
  connection: 'A page of tournaments, newest first (Relay cursor connection)',
  edge: 'A tournament of a page, with its cursor',
  node: 'The tournament',
  items: 'tournaments',
  pageInfo: 'Where the page ends, and whether more tournaments follow it (forwards only: hasPreviousPage is false)',
});
export type TournamentConnection = Connection<TournamentSummary>;

export const TournamentEventConnection = connectionOf(TournamentEvent, 'TournamentEvent', {
  connection: "A page of a tournament's events, oldest first (Relay cursor connection): the cursor is the event's seq, so a page resumes as the tournamentEvents subscription does",
  edge: 'An event of a page, with its cursor',
  node: 'The event',
  items: 'events',
  cursor: "The event's seq as a string: pass it as `after` or `before` (or its number as the subscription's afterSeq)",
  pageInfo: 'Where the page starts and ends, and whether more events follow or precede it',
  totalCount: "How many events the tournament's log holds (its version)",
});
export type TournamentEventConnection = Connection<TournamentEvent>;

/** A page of the tournaments, newest first: forwards from a cursor, as the challenges' lists page. */
@ArgsType()
export class TournamentPageArgs {
  @Field(() => Int, { nullable: true, description: 'At most 100; 20 by default' }) first: number | null;
  @Field(() => String, { nullable: true, description: 'A cursor: the tournaments after it' }) after: string | null;
}
