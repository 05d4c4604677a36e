import { Field, Int, ObjectType } from '@nestjs/graphql';
import { JSONScalar } from '../../../api/json.scalar.js';

@ObjectType({ description: 'One legal play: this tile on this target' })
export class ChickenFootLegalPlay {
  @Field() tile: string;
  @Field() target: string;
  @Field({ description: 'True when the play takes you to one tile and the ruleset wants "last tile" called' }) announce: boolean;
}

@ObjectType({ description: "What the caller's seat may do now: its legal plays, or draw, or pass (all empty when it is not its turn)" })
export class ChickenFootLegalActions {
  @Field(() => Int, { nullable: true, description: "The caller's seat; null for spectators" }) seat: number | null;
  @Field(() => [ChickenFootLegalPlay]) plays: ChickenFootLegalPlay[];
  @Field() canDraw: boolean;
  @Field() canPass: boolean;
}

@ObjectType({ description: 'A ruleset checked without creating a game' })
export class ChickenFootRulesetCheck {
  @Field() ok: boolean;
  @Field(() => String, { nullable: true, description: 'Why the ruleset is invalid' }) message: string | null;
  @Field(() => [String], { description: 'Advice that does not make the ruleset invalid, e.g. a small yard' }) warnings: string[];
  @Field(() => JSONScalar, { nullable: true, description: 'The ruleset with every option resolved' }) ruleset: unknown;
}
