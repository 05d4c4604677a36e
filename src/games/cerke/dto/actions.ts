/** Arguments of the typed Cerke mutations, and a legal action as `cerkeLegalActions` lists it. */
import { ArgsType, Field, ID, Int, ObjectType } from '@nestjs/graphql';
import type { CerkeAction, Colour, Kind } from '../engine/index.js';
import { CerkeActionType, CerkeColour, CerkeKind, CerkeStepDuring, type StepDuring } from './enums.js';

const SQUARE = 'A square: column K L N T Z X C M P, then row A E I U O Y AI AU IA (e.g. ZO, ZAI)';

/** What every Cerke turn names: the game, a client move id and, optionally, the version it expects. */
@ArgsType()
export class CerkeTurnArgs {
  @Field(() => ID, { description: 'The Cerke game' }) gameId: string;
  @Field({ description: 'Client move id: a retry with the same id and body returns the original result' }) moveId: string;
  @Field(() => Int, { nullable: true, description: 'Refuse the move (VERSION_CONFLICT) unless the game is at this version' }) expectedVersion?: number | null;
}

@ArgsType()
export class CerkeMoveArgs extends CerkeTurnArgs {
  @Field({ description: `The piece's square. ${SQUARE}` }) from: string;
  @Field(() => String, { nullable: true, description: 'The occupied square the piece steps on, for a stepping move' }) via?: string | null;
  @Field({
    description:
      'The final square. When the leg after `via` is limited by a stick cast, the square named before the cast: its direction (online) or the exact destination (strict) binds the completion',
  })
  to: string;
}

@ArgsType()
export class CerkeCompleteStepArgs extends CerkeTurnArgs {
  @Field({ description: "Where the stick-limited leg ends: one of the pending decision's completions" }) to: string;
}

@ArgsType()
export class CerkeDropArgs extends CerkeTurnArgs {
  @Field(() => CerkeColour, { description: 'The colour of the captured piece to drop (it keeps its colour and becomes yours)' }) colour: Colour;
  @Field(() => CerkeKind, { description: 'The kind of the captured piece to drop' }) kind: Kind;
  @Field({ description: `An empty square. ${SQUARE}` }) to: string;
}

@ArgsType()
export class CerkeMoveTam2Args extends CerkeTurnArgs {
  @Field({ description: 'The empty square Tam2 reaches with its first King step' }) firstSquare: string;
  @Field({ description: 'The empty square its second King step ends on' }) to: string;
  @Field(() => String, { nullable: true, description: 'An occupied square Tam2 steps on (give stepDuring too)' }) via?: string | null;
  @Field(() => CerkeStepDuring, { nullable: true, description: 'With `via`: whether Tam2 steps on it during its first or its second King step' }) stepDuring?: StepDuring | null;
}

@ObjectType({
  description:
    'A Cerke action (a legal one, or one a seat took); only the fields its type uses are set. Each type has its mutation: cerkeMove, cerkeCompleteStep, cerkeAbandonStep, cerkeDrop, cerkeMoveTam2, cerkeDeclareContinue, cerkeDeclareEndSeason',
})
export class CerkeLegalAction {
  @Field(() => CerkeActionType, { description: 'What the action does; it names the mutation to send it with' }) type: CerkeAction['type'];
  @Field(() => String, { nullable: true, description: `MOVE: the piece's square; null for other types. ${SQUARE}` }) from?: string;
  @Field(() => String, { nullable: true, description: 'MOVE, MOVE_TAM2: the occupied square stepped on; null for a move without a step and for other types' }) via?: string;
  @Field(() => String, {
    nullable: true,
    description:
      'MOVE: the final square (or, with a stick-limited leg, the square named before the cast); COMPLETE_STEP: where the leg ends; DROP: the empty square; MOVE_TAM2: where Tam2 ends. Null for other types',
  })
  to?: string;
  @Field(() => String, { nullable: true, description: "MOVE_TAM2: the empty square Tam2's first King step reaches; null for other types" }) firstSquare?: string;
  @Field(() => CerkeStepDuring, { nullable: true, description: 'MOVE_TAM2 with `via`: during which King step Tam2 steps on it; null otherwise' }) stepDuring?: StepDuring;
  @Field(() => CerkeColour, { nullable: true, description: 'DROP: the colour of the captured piece dropped; null for other types' }) colour?: Colour;
  @Field(() => CerkeKind, { nullable: true, description: 'DROP: the kind of the captured piece dropped; null for other types' }) kind?: Kind;
}

@ObjectType({ description: "What the caller's seat may do now (no actions for spectators and out of turn)" })
export class CerkeLegalActions {
  @Field(() => Int, { nullable: true, description: "The caller's seat; null for spectators" }) seat: number | null;
  @Field(() => [CerkeLegalAction], { description: 'Every legal action now, as cerkeLegalActions lists them' }) actions: CerkeLegalAction[];
}
