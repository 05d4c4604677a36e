import { ArgsType, Field, ID, Int } from '@nestjs/graphql';

@ArgsType()
export class ChickenFootMoveArgs {
  @Field(() => ID, { description: 'The Chicken Foot game' }) gameId: string;
  @Field({ description: 'Client move id: a retry with the same id and body returns the original result' }) moveId: string;
  @Field(() => Int, { nullable: true, description: 'The game version you saw; the move is refused with VERSION_CONFLICT if the game has moved on' })
  expectedVersion?: number | null;
}

@ArgsType()
export class ChickenFootPlayArgs extends ChickenFootMoveArgs {
  @Field({ description: 'The tile from your hand, e.g. "5-8" (either order)' }) tile: string;
  @Field({ description: '"hub" for the starting double, or the tile on the table to attach to: a line tile with a matching open end, or a chicken foot double (your tile becomes a toe)' })
  target: string;
  @Field(() => Boolean, { nullable: true, description: 'Call "last tile" as you go down to one tile (when the ruleset penalises not calling it)' })
  announce?: boolean | null;
}
