import { ArgsType, Field, ID, InputType, Int, ObjectType } from '@nestjs/graphql';

const FROM = "The point the checker leaves, in the mover's own numbering (he moves from 24 towards 1): 1-24, or 25 for the bar";
const TO = "The point the checker reaches, in the mover's own numbering: 1-24, or 0 when it is borne off";

/** The arguments every backgammon move mutation shares. */
@ArgsType()
export class BackgammonMoveArgs {
  @Field(() => ID, { description: 'The backgammon game' }) gameId: string;
  @Field({ description: 'Client move id: a retry with the same id and move returns the original result' }) moveId: string;
  @Field(() => Int, { nullable: true, description: 'The game version the move was chosen at; a newer game refuses it with VERSION_CONFLICT' })
  expectedVersion?: number | null;
}

@InputType({ description: 'One checker moved by one die, as players write it: 13/8 is {from: 13, to: 8}, bar/22 is {from: 25, to: 22}, 6/off is {from: 6, to: 0}' })
export class BackgammonCheckerMoveInput {
  @Field(() => Int, { description: FROM }) from: number;
  @Field(() => Int, { description: TO }) to: number;
}

@ObjectType({ description: 'One checker moved by one die' })
export class BackgammonCheckerMove {
  @Field(() => Int, { description: FROM }) from: number;
  @Field(() => Int, { description: TO }) to: number;
  @Field({ description: 'The checker hit a blot on the point it reached' }) hit: boolean;
}

@ObjectType({ description: 'A legal way to play the dice' })
export class BackgammonPlay {
  @Field(() => [BackgammonCheckerMove], { description: 'The checker moves, in an order they can be played; send their from and to to backgammonPlay to make this play' })
  moves: BackgammonCheckerMove[];
  @Field({ description: 'The play as gnubg writes it, e.g. "bar/22* 13/9" or "6/off 5/off"' }) notation: string;
  @Field({ description: 'GNU Backgammon Position ID after the play, seen from the opponent, who is on roll next' }) resultingPositionId: string;
}
