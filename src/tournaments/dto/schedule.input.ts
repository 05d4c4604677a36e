import { Field, InputType, Int } from '@nestjs/graphql';

@InputType({ description: 'A tournament that runs itself (docs/rules/tournaments.md P2.9-P2.11): every field optional; times are ISO 8601 instants' })
export class TournamentScheduleInput {
  @Field(() => Date, { nullable: true, description: 'When round 1 is paired by the referee (with at least 2 participants in); omitted: the organizer pairs it' })
  startAt?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Participants may register themselves from then (with openRegistration); omitted: from creation' })
  registrationOpensAt?: Date | null;
  @Field(() => Date, { nullable: true, description: 'Until then (at the start or before); omitted: until round 1 is paired' })
  registrationClosesAt?: Date | null;
  @Field(() => Int, { nullable: true, description: 'Check-in opens this many minutes before startAt (1 to 10080); who has not checked in by the start is withdrawn before round 1' })
  checkInMinutes?: number | null;
  @Field(() => Boolean, { nullable: true, description: 'The referee pairs the next round when the current one finishes; omitted: false' })
  autoPair?: boolean | null;
  @Field(() => Int, { nullable: true, description: 'With autoPair: seconds to wait after a round finishes before pairing the next (0 to 604800); omitted: 0' })
  pairingIntervalSeconds?: number | null;
  @Field(() => Boolean, { nullable: true, description: 'Round-robins: every round is paired with round 1, all its games created at once (each counts in its own round); omitted: false' })
  scheduleAll?: boolean | null;
}
