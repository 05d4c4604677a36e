import { Field, ID, InputType, Int } from '@nestjs/graphql';

@InputType({ description: 'A pairing the organizer fixes' })
export class ManualPairingInput {
  @Field(() => ID, { description: 'One participant' }) a: string;
  @Field(() => ID, { description: 'The other participant' }) b: string;
  @Field(() => [ID], { nullable: true, description: 'Both participants in seat order (seat 0 first); omitted: seats given by the seat-balance rules' }) seats?: string[] | null;
}

@InputType({ description: "The organizer's settings for the next round to pair; every list omitted is empty" })
export class RoundSettingsInput {
  @Field(() => Int, { nullable: true, description: 'The round they are for; omitted: the next round to pair' }) round?: number | null;
  @Field(() => [ManualPairingInput], { nullable: true, description: 'Pairings used as given (2-seat formats)' }) manualPairings?: ManualPairingInput[] | null;
  @Field(() => ID, { nullable: true, description: 'The participant given the bye (an odd number paired)' }) manualBye?: string | null;
  @Field(() => [[ID]], { nullable: true, description: 'Tables format: fixed tables, each its participants in seat order' }) manualTables?: string[][] | null;
  @Field(() => [ID], { nullable: true, description: 'Participants absent this round (not paired, no points)' }) absent?: string[] | null;
  @Field(() => [ID], { nullable: true, description: 'Participants given the byes they requested (within maxRequestedByes)' }) requestedByes?: string[] | null;
  @Field(() => [[ID]], { nullable: true, description: 'Pairs of participants the algorithm never pairs, from this round on' }) forbiddenPairs?: string[][] | null;
  @Field(() => [ID], { nullable: true, description: 'Knockout with manual seeding: every participant, seed 1 first (round 1 only)' }) seeds?: string[] | null;
}
