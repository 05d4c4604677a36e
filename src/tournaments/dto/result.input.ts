import { Field, ID, InputType, Int, registerEnumType } from '@nestjs/graphql';

/** The result of a 2-seat game as the organizer enters it (the service's words). */
export enum ResultOutcome {
  WIN_SEAT0 = 'WIN_SEAT0',
  WIN_SEAT1 = 'WIN_SEAT1',
  DRAW = 'DRAW',
  FORFEIT_WIN_SEAT0 = 'FORFEIT_WIN_SEAT0',
  FORFEIT_WIN_SEAT1 = 'FORFEIT_WIN_SEAT1',
  DOUBLE_FORFEIT = 'DOUBLE_FORFEIT',
}
registerEnumType(ResultOutcome, {
  name: 'ResultOutcome',
  description: "A 2-seat game's result as the organizer enters it",
  valuesMap: {
    WIN_SEAT0: { description: 'Seat 0 won the game played' },
    WIN_SEAT1: { description: 'Seat 1 won the game played' },
    DRAW: { description: 'The game was drawn' },
    FORFEIT_WIN_SEAT0: { description: 'Seat 1 did not play: seat 0 wins by forfeit' },
    FORFEIT_WIN_SEAT1: { description: 'Seat 0 did not play: seat 1 wins by forfeit' },
    DOUBLE_FORFEIT: { description: 'Neither seat played: both lose' },
  },
});

@InputType({ description: "The organizer's result for a scheduled game (an over-the-board game, a forfeit, or a correction); the game is closed with it" })
export class ResultInput {
  @Field(() => Int, { description: 'The round' }) round: number;
  @Field(() => Int, { description: 'The board' }) board: number;
  @Field(() => ID, { nullable: true, description: "The board's game; omitted: the board's game still waiting for its result" }) gameId?: string | null;
  @Field(() => ResultOutcome, { nullable: true, description: '2-seat formats: who won; with a record attached it may be left out (the record tells), and given it must agree (RECORD_DISAGREES)' })
  outcome?: ResultOutcome | null;
  @Field(() => [String], {
    nullable: 'itemsAndList',
    description:
      'Game points per seat as numbers in text ("1", "0"): backgammon points won, Cerke final points, Chicken Foot pips; null for an absent seat. With a record attached they may be left out (taken from it); given, they must agree',
  })
  gamePoints?: (string | null)[] | null;
  @Field(() => [Boolean], { nullable: true, description: 'Tables: who was present, per seat (absent seats forfeit); omitted: everyone' }) present?: boolean[] | null;
  @Field(() => String, {
    nullable: true,
    description: "The game's record in its own format (.mat, cerke_online text, Chicken Foot JSON): imported; the outcome and game points are taken from it, and what is entered besides must agree",
  })
  record?: string | null;
  @Field(() => String, { nullable: true, description: 'Why (a forfeit, a correction); at most 500 characters' }) reason?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Replaces the result recorded earlier; needs a reason' }) correction?: boolean | null;
}
