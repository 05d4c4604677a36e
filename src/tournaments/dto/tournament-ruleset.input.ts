import { Field, InputType } from '@nestjs/graphql';
import { JSONScalar } from '../../api/json.scalar.js';
import { TypedRulesets } from '../../games/tournament-rulesets.js';
import { TournamentFormat } from '../models/enums.js';

/** The game a tournament plays, as createTournament takes it and tournamentRulesetCheck checks it: kind, format and ruleset (typed or JSON). */
@InputType({ isAbstract: true })
export abstract class TournamentGameFields extends TypedRulesets {
  @Field({ description: 'The game kind every game plays (one of gameKinds)' }) kind: string;
  @Field(() => JSONScalar, {
    nullable: true,
    description: 'The ruleset every game uses as JSON, as createGame takes it (e.g. {"matchLength": 1}); defaults fill the rest. Or give the typed one for the kind (backgammonRuleset, ...)',
  })
  ruleset?: unknown;
  @Field(() => TournamentFormat, { description: 'How participants are paired and ranked' }) format: TournamentFormat;
}

@InputType({ description: "A tournament's game to check, given as createTournament takes it: the kind, the format, and the ruleset typed or as JSON" })
export class TournamentRulesetInput extends TournamentGameFields {}
