/**
 * Actions as JSON. Squares are written column letter then row name (`ZO`, `ZAI`, `LIA`, docs/rules/cerke.md §2.1).
 */
import { type Colour, type Kind, COLOURS, KINDS, parseSquare } from './board.js';
import { fail, ok, type Result } from '../../../engines/kit/index.js';

export type CerkeAction =
  /** Move one of your pieces: directly, or stepping on `via`. With a stick-limited second leg, `to` is the planned square. */
  | { type: 'move'; from: string; via?: string; to: string }
  /** After the stepping cast: finish the stick-limited leg on `to`. */
  | { type: 'completeStep'; to: string }
  /** After the stepping cast: leave the piece on its origin; the turn ends. */
  | { type: 'abandonStep' }
  /** Put a piece of your captured pile on an empty square. */
  | { type: 'drop'; colour: Colour; kind: Kind; to: string }
  /** Move Tam2 two King steps: to `firstSquare`, then to `to`; `via` is stepped on during `stepDuring`. */
  | { type: 'moveTam2'; firstSquare: string; to: string; via?: string; stepDuring?: 'firstHalf' | 'secondHalf' }
  /** ty mok1: keep playing the season; the stake doubles. */
  | { type: 'continue' }
  /** ta xot1: take your hands' value times the stake and end the season. */
  | { type: 'endSeason' };

const FIELDS: Record<CerkeAction['type'], { required: string[]; optional: string[] }> = {
  move: { required: ['from', 'to'], optional: ['via'] },
  completeStep: { required: ['to'], optional: [] },
  abandonStep: { required: [], optional: [] },
  drop: { required: ['colour', 'kind', 'to'], optional: [] },
  moveTam2: { required: ['firstSquare', 'to'], optional: ['via', 'stepDuring'] },
  continue: { required: [], optional: [] },
  endSeason: { required: [], optional: [] },
};
const SQUARE_FIELDS = new Set(['from', 'via', 'to', 'firstSquare']);

export function parseAction(input: unknown): Result<CerkeAction> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return fail('INVALID_INPUT', 'an action must be a JSON object with a "type"');
  const action = input as Record<string, unknown>;
  const type = action.type;
  if (typeof type !== 'string' || !Object.hasOwn(FIELDS, type)) return fail('INVALID_INPUT', `action "type" must be one of ${Object.keys(FIELDS).join(', ')}`);
  const { required, optional } = FIELDS[type as CerkeAction['type']];
  for (const key of Object.keys(action)) {
    if (key !== 'type' && !required.includes(key) && !optional.includes(key)) return fail('INVALID_INPUT', `a ${type} action has no field "${key}"`);
  }
  for (const key of required) if (action[key] === undefined) return fail('INVALID_INPUT', `a ${type} action needs "${key}"`);
  for (const key of Object.keys(action)) {
    const value = action[key];
    if (SQUARE_FIELDS.has(key) && (typeof value !== 'string' || parseSquare(value) < 0))
      return fail('INVALID_INPUT', `"${key}" must be a square such as "ZO" or "ZAI" (column K L N T Z X C M P, then row A E I U O Y AI AU IA), not ${JSON.stringify(value)}`);
  }
  if (type === 'drop') {
    if (!COLOURS.includes(action.colour as Colour)) return fail('INVALID_INPUT', `"colour" must be "red" or "black"`);
    if (!KINDS.includes(action.kind as Kind)) return fail('INVALID_INPUT', `"kind" must be one of ${KINDS.join(', ')}`);
  }
  if (type === 'moveTam2') {
    if (action.stepDuring !== undefined && action.stepDuring !== 'firstHalf' && action.stepDuring !== 'secondHalf') return fail('INVALID_INPUT', '"stepDuring" must be "firstHalf" or "secondHalf"');
    if ((action.via === undefined) !== (action.stepDuring === undefined))
      return fail('INVALID_INPUT', 'a Tam2 move that steps on a square gives both "via" and "stepDuring"; one without the other is incomplete');
  }
  return ok(action as CerkeAction);
}
