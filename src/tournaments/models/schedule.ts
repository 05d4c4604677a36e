import { Field, ID, Int, ObjectType } from '@nestjs/graphql';

@ObjectType({ description: 'A tournament that runs itself: its schedule as configured, and where its steps stand (docs/rules/tournaments.md P2.9-P2.11)' })
export class TournamentSchedule {
  @Field(() => Date, { nullable: true, description: 'When the referee pairs round 1; null: the organizer does' }) startAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'When self-registration opens; null: at creation' }) registrationOpensAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'When self-registration closes; null: when round 1 is paired' }) registrationClosesAt: Date | null;
  @Field({ description: 'PENDING (not yet open), OPEN or CLOSED' }) registration: string;
  @Field(() => Date, { nullable: true, description: 'When check-in opens; null: no check-in' }) checkInOpensAt: Date | null;
  @Field({ description: 'NONE (no check-in), PENDING, OPEN or CLOSED' }) checkIn: string;
  @Field(() => [ID], { description: 'The participants who checked in, in the order they did' }) checkedIn: string[];
  @Field({ description: 'The referee pairs the next round when the current one finishes' }) autoPair: boolean;
  @Field(() => Int, { description: 'Seconds between a round finishing and the next being paired, at least' }) pairingIntervalSeconds: number;
  @Field({ description: 'Round-robins: every round was (or is) paired with round 1, all its games at once' }) scheduleAll: boolean;
  @Field(() => Int, { nullable: true, description: 'The round the referee pairs next, once scheduled' }) nextRound: number | null;
  @Field(() => Date, { nullable: true, description: 'When the next timed step is due (registration, check-in, the start, the next round); null: none is pending' })
  nextStepAt: Date | null;
}
