/** What the games' typed rulesets share: input fields to ruleset JSON, ruleset checks and typed creation. */
import { Field, ObjectType } from '@nestjs/graphql';
import { JSONScalar } from '../api/json.scalar.js';
import { answerOrRejection, toGame } from '../api/mapping.js';
import type { CreateGameResult, SeatInput } from '../api/models.js';
import type { Engine } from '../engines/kit/index.js';
import { type CreateGameInput, RefereeError, type RefereeService } from '../referee/index.js';

/**
 * The options a typed ruleset input gives, as the engine's ruleset JSON. GraphQL passes an
 * omitted field as undefined and an explicit null as null: both leave the option to its default,
 * except the options in `nullMeans`, where null is itself a value (backgammon's unlimited cube).
 */
export function definedOptions(fields: object, nullMeans: readonly string[] = []): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([k, v]) => v !== undefined && (v !== null || nullMeans.includes(k))));
}

/** The engine's resolved ruleset for ruleset JSON, or the engine's refusal as a RefereeError. */
export function parsedRuleset<R>(engine: Engine<R, unknown, unknown>, ruleset: unknown): R {
  const parsed = engine.parseRuleset(ruleset);
  if (!parsed.ok) throw new RefereeError(parsed.error.code, parsed.error.message);
  return parsed.value;
}

/** The fields every game's ruleset check answers. */
@ObjectType({ isAbstract: true })
export abstract class RulesetCheckFields {
  @Field({ description: 'Whether a game can be created with this ruleset' }) ok: boolean;
  @Field(() => String, { nullable: true, description: 'Why the ruleset is invalid' }) message: string | null;
  @Field(() => [String], { description: 'Advice that does not make the ruleset invalid (an option with no effect, a small yard, ...)' }) warnings: string[];
  @Field(() => JSONScalar, { nullable: true, description: 'The ruleset with every option resolved, as createGame stores it (the engine spelling of each value)' })
  ruleset: unknown;
}

/** A ruleset checked without creating a game: its resolved form (`options` typed by `typed`) and warnings, or why it is invalid. */
export function checkRuleset<R, O>(engine: Engine<R, unknown, unknown>, ruleset: unknown, warnings: (r: R) => string[], typed: (r: R) => O): RulesetCheckFields & { options: O | null } {
  const parsed = engine.parseRuleset(ruleset);
  if (!parsed.ok) return { ok: false, message: parsed.error.message, warnings: [], ruleset: null, options: null };
  return { ok: true, message: null, warnings: warnings(parsed.value), ruleset: parsed.value, options: typed(parsed.value) };
}

/** The seats of a creation input as the referee takes them. */
export const seatPlans = (seats: SeatInput[] | null | undefined): CreateGameInput['seats'] =>
  seats?.map((s) => ({ name: s.name, clientSeed: s.clientSeed, open: s.open ?? false, player: s.player ?? null }));

/** Creates a game from a typed input; a refusal (also one thrown while building the input) answers a Rejection. */
export async function createTypedGame(referee: RefereeService, build: () => CreateGameInput): Promise<typeof CreateGameResult> {
  return answerOrRejection(async () => {
    const { game, tokens } = await referee.createGame(build());
    return { game: toGame(game), tokens };
  });
}
