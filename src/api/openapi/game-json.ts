/**
 * The JSON whose fields are a game kind's own (rulesets, views, actions, outcomes' details):
 * objects with any fields, their shape told per kind, so that generated clients type them as
 * objects (openapi-typescript: `Record<string, unknown>`) rather than as empty ones.
 */
import type { Schema } from './builders.js';

/** An object with any fields, its shape told in `description`. */
export const freeObject = (description: string): Schema => ({ type: 'object', additionalProperties: true, description });

/** A ruleset: `what` it is, then its fields by kind. */
export const rulesetSchema = (what: string): Schema =>
  freeObject(
    `${what}. Its fields are the kind's own (docs/rules/<kind>.md): backgammon \`matchLength\`, \`crawford\`, \`cubeEnabled\`, \`maxCube\`, \`jacoby\`, \`beavers\`, \`openingRoll\`, ...; ` +
      'Cerke `profile`, `seasons` and the rules the profile sets; Chicken Foot `preset`, `players`, `setMax`, `handSize`, the hub, draw and scoring rules, `gameEnd`, ...',
  );

/** An action as the engines take and list it. */
export const actionSchema: Schema = {
  type: 'object',
  required: ['type'],
  additionalProperties: true,
  description:
    "An action in the engine JSON: its `type` and that type's fields. Backgammon: `roll`, `play` (`moves`: [{ `from`, `to` }]), `double`, `take`, `drop`, `beaver`, `raccoon`, " +
    '`resign` (`level`), `acceptResignation`, `rejectResignation`; Cerke: `move` (`from`, `via`?, `to`), `completeStep` (`to`), `abandonStep`, `drop` (`colour`, `kind`, `to`), ' +
    '`moveTam2` (`firstSquare`, `to`, `via`?, `stepDuring`?), `continue`, `endSeason`; Chicken Foot: `play` (`tile`, `target`, `announce`?), `draw`, `pass`',
  properties: { type: { type: 'string', examples: ['roll', 'play', 'draw'] } },
};

/** A game as its seat or a spectator may see it. */
export const viewSchema: Schema = freeObject(
  'The game as the caller may see it, in the engine JSON. Backgammon: `board` (per seat and absolute), `dice`, `cube`, `score`, `phase`, `pendingDouble`, `positionId`, `matchId`, `lastTurn`, `games`, ...; ' +
    "Cerke: `board` (square, kind, colour, side), the captured piles and their hands, `pendingDecision`, `pendingCast`, seasons and scores, ...; Chicken Foot: `round` (the table, `targets`, `handSizes`, the viewer's own `hand`, ...), `rounds` finished, `totals`, ...",
);

/** The details of a game's outcome. */
export const outcomeDetailsSchema: Schema = freeObject(
  'Game-specific detail. Backgammon: `matchLength`, `finalScore`, `games`; Cerke: `reason`, `resignedBy`, `points`, `seasons`, `ranking`; ' +
    'Chicken Foot: `reason`, `resigned`, `decidedBy`, `roundsPlayed`, `roundScores`, `totals`',
);
