import { Field, Int, ObjectType } from '@nestjs/graphql';
import { RulesetCheckFields } from '../../games/rulesets.js';

@ObjectType({ description: "A tournament's game checked without creating the tournament: what createTournament would store, or why it would refuse it" })
export class TournamentRulesetCheck extends RulesetCheckFields {
  @Field(() => Int, { nullable: true, description: "Seats at each game (a tables tournament's table size); null when refused" }) seatCount: number | null;
}
