import { Field, ID, InputType, Int, ObjectType, createUnionType } from '@nestjs/graphql';
import { Rejection } from '../../api/models.js';
import { Tournament } from './tournament.js';

@InputType({ description: 'One participant of a bulk registration' })
export class ParticipantRowInput {
  @Field({ description: 'Its display name' }) name: string;
  @Field(() => Int, { nullable: true, description: "Its rating, 0 to 10000; omitted: its player's current rating in the tournament's pool, else 0 (unrated) (docs/ratings.md)" }) rating?:
    | number
    | null;
  @Field(() => String, { nullable: true, description: "The organizer's own id for it (a federation id, a club number), 1 to 64 characters, unique in the tournament" })
  externalId?: string | null;
  @Field(() => [Int], { nullable: true, description: 'Rounds it asks a bye for (Swiss and tables, P2.6): given when each is paired, at most maxRequestedByes' })
  requestedByes?: number[] | null;
  @Field(() => ID, { nullable: true, description: 'The player it is (its games are bound to the player)' }) player?: string | null;
}

@ObjectType({ description: 'A participant a bulk registration registered' })
export class RegisteredRow {
  @Field(() => Int, { description: 'Its row, 1 for the first' }) row: number;
  @Field(() => ID, { description: "The new participant's id" }) participantId: string;
  @Field({ description: 'Secret, shown only here: the participant\'s token ("Authorization: Bearer <token>")' }) participantToken: string;
}

@ObjectType({ description: 'Every row registered' })
export class ParticipantsRegistered {
  @Field(() => Tournament, { description: 'The tournament with the participants' }) tournament: Tournament;
  @Field(() => [RegisteredRow], { description: 'Each row, in order, with its participant and token' }) participants: RegisteredRow[];
}

@ObjectType({ description: 'A row refused, and why' })
export class RowRefusal {
  @Field(() => Int, { description: 'Its row, 1 for the first (in CSV: the first line after the header)' }) row: number;
  @Field({ description: 'A stable refusal code, as a Rejection has' }) code: string;
  @Field({ description: 'What to do about it, for a person' }) message: string;
}

@ObjectType({ description: 'Rows refused: nothing was registered' })
export class ParticipantsRefused {
  @Field(() => [RowRefusal], { description: 'Every refused row, in order' }) rows: RowRefusal[];
}

export const RegisterParticipantsResult = createUnionType({
  name: 'RegisterParticipantsResult',
  description: 'Every row registered (ParticipantsRegistered), the rows refused with nothing stored (ParticipantsRefused), or why not at all (Rejection)',
  types: () => [ParticipantsRegistered, ParticipantsRefused, Rejection] as const,
  resolveType: (v: object) => ('code' in v ? Rejection : 'rows' in v ? ParticipantsRefused : ParticipantsRegistered),
});
