import { Field, InputType, Int } from '@nestjs/graphql';
import { JSONScalar } from '../../api/json.scalar.js';
import { TimeControlInput } from '../../api/models.js';
import { TournamentScheduleInput } from './schedule.input.js';
import { TournamentGameFields } from './tournament-ruleset.input.js';

@InputType({ description: 'Tournament points for a 2-seat result, whole numbers or halves as text ("1", "1/2", "0.5")' })
export class PointsInput {
  @Field(() => String, { nullable: true, description: 'For a win; omitted: "1"' }) win?: string | null;
  @Field(() => String, { nullable: true, description: 'For a draw; omitted: "1/2"' }) draw?: string | null;
  @Field(() => String, { nullable: true, description: 'For a loss; omitted: "0"' }) loss?: string | null;
}

@InputType({ description: 'A new tournament: the game, the format and how it scores. Every field but kind and format has a default; points are exact numbers as text.' })
export class CreateTournamentInput extends TournamentGameFields {
  @Field(() => String, { nullable: true, description: 'Its name, at most 120 characters' }) name?: string | null;
  @Field(() => Int, { nullable: true, description: 'Swiss and tables: the rounds to play (1-64), required; round-robin and the bracket formats: leave out (their participants fix it)' })
  rounds?: number | null;
  @Field(() => PointsInput, { nullable: true, description: 'Tournament points for a win, a draw and a loss (win > 0, win >= draw >= loss)' }) points?: PointsInput | null;
  @Field(() => String, { nullable: true, description: 'Points for a pairing-allocated bye; omitted: a win (tables: half the other seats)' }) byePoints?: string | null;
  @Field(() => String, { nullable: true, description: 'Points for each round before a late entry; omitted: "0"' }) lateEntryPoints?: string | null;
  @Field(() => String, { nullable: true, description: 'Points for a requested bye; omitted: a draw (tables: half the other seats)' }) requestedByePoints?: string | null;
  @Field(() => Int, { nullable: true, description: 'Requested byes a participant may have; omitted: 1' }) maxRequestedByes?: number | null;
  @Field(() => [String], {
    nullable: true,
    description: "Tie-breaks in order: BH, BH-C1, SB, DE, WON, GP, LOTS (tables: GP, WON, LOTS); omitted: the format's defaults; a knockout has none",
  })
  tieBreaks?: string[] | null;
  @Field(() => String, { nullable: true, description: 'Round-robin pairing numbers: "lots" (default) or "rating"' }) rrNumbering?: string | null;
  @Field(() => String, { nullable: true, description: 'Knockout seeding: "rating" (default), "lots" or "manual" (seeds in setPairings before round 1)' }) koSeeding?: string | null;
  @Field(() => Int, { nullable: true, description: 'Knockout matches (any bracket format): games per match, 1 to 15; omitted: 1' }) gamesPerMatch?: number | null;
  @Field(() => [String], { nullable: true, description: 'Knockout: how a tied match is decided, in order: REPLAY(n), GAME_POINTS, LOTS (e.g. ["REPLAY(1)", "LOTS"])' })
  koTieRule?: string[] | null;
  @Field(() => Boolean, {
    nullable: true,
    description: "Knockout, or the knockout after groups: the semi-finals' losers play a third-place match (board 2 of the last round) for 3rd and 4th; omitted: false",
  })
  thirdPlaceMatch?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: "Double elimination: a second grand final when the losers' bracket champion wins the first; omitted: true" })
  bracketReset?: boolean | null;
  @Field(() => Int, { nullable: true, description: 'Groups then knockout: the number of groups, 1 to 64 (or give groupSize)' }) groupCount?: number | null;
  @Field(() => Int, { nullable: true, description: 'Groups then knockout: the group size, 2 to 32, the count following from the participants; omitted with groupCount: 4' })
  groupSize?: number | null;
  @Field(() => Int, { nullable: true, description: 'Groups then knockout: how many of each group go on to the knockout, 1 to 16; omitted: 2' }) advancePerGroup?: number | null;
  @Field(() => Int, { nullable: true, description: 'Tables: the fewest seats present for a table to play; omitted: 2' }) minSeats?: number | null;
  @Field(() => JSONScalar, { nullable: true, description: 'Tables: placement points per table size, e.g. {"3": ["2", "1", "0"]}; sizes not listed use the default' })
  placementPoints?: unknown;
  @Field(() => String, { nullable: true, description: 'Tables: points for a bye; omitted: half the other seats' }) tableByePoints?: string | null;
  @Field(() => String, { nullable: true, description: 'Tables: "greedy" (default) or "avoidRepeats" (seat participants who met least often together)' }) tableSeating?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Participants may register themselves (registerParticipant without a token); omitted: false' }) openRegistration?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'Participants may withdraw themselves with their own token; omitted: false' }) selfWithdrawal?: boolean | null;
  @Field(() => Boolean, {
    nullable: true,
    description: "Participants report their games' results (reportResult); agreeing reports record them, disagreeing ones open a dispute (docs/rules/tournaments.md R3.10); omitted: false",
  })
  playerReports?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'Its games are rated (docs/ratings.md): every participant must be a player (RATED_NEEDS_PLAYERS otherwise); omitted: false' })
  rated?: boolean | null;
  @Field(() => TimeControlInput, { nullable: true, description: "Every game's clock, as createGame takes it; omitted: none" }) timeControl?: TimeControlInput | null;
  @Field(() => TournamentScheduleInput, { nullable: true, description: 'A start time, a registration window, check-in and automatic pairings; omitted: the organizer runs every step' })
  schedule?: TournamentScheduleInput | null;
}
