/** JSON input checks: rulesets and actions (shape only, never legality). */
import { fail, ok, type Result } from '../../../engines/kit/index.js';
import type { CheckerMove } from './board.js';
import type { BackgammonAction, BackgammonRuleset } from './types.js';

/** Match lengths above this cannot be written in a Match ID. */
export const MAX_MATCH_LENGTH = 32767;
/** The Match ID stores the cube as log2 in 4 bits. */
export const CUBE_LIMIT = 2 ** 15;

const invalid = <T>(message: string) => fail<T>('INVALID_INPUT', message);

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

function unknownKey(input: Record<string, unknown>, allowed: readonly string[], what: string): string | null {
  const extra = Object.keys(input).find((k) => !allowed.includes(k));
  return extra === undefined ? null : `${what} has no field "${extra}" (allowed: ${allowed.join(', ')})`;
}

const RULESET_KEYS = [
  'matchLength',
  'crawford',
  'holland',
  'cubeEnabled',
  'maxCube',
  'jacoby',
  'beavers',
  'raccoons',
  'automaticDoubles',
  'openingRoll',
  'autoRoll',
  'skipRollWhenClosedOut',
  'backgammonIncludesBar',
  'resignWhen',
  'forbidRepeatLowerResignation',
  'jacobyAppliesToResignations',
  'autoPlayForced',
] as const;

export function parseRuleset(input: unknown): Result<BackgammonRuleset> {
  const raw = input === undefined || input === null ? {} : input;
  if (!isObject(raw)) return invalid('the ruleset must be a JSON object');
  const extra = unknownKey(raw, RULESET_KEYS, 'the ruleset');
  if (extra) return invalid(extra);

  // Each reader returns the value (or its default) and notes the first problem found.
  let problem: string | null = null;
  const note = <T>(why: string, dflt: T): T => {
    problem ??= why;
    return dflt;
  };
  const int = (key: string, min: number, max: number, dflt: number): number => {
    const v = raw[key];
    if (v === undefined) return dflt;
    if (typeof v !== 'number' || !Number.isInteger(v)) return note(`${key} must be an integer`, dflt);
    return v < min || v > max ? note(`${key} must be between ${min} and ${max}, got ${v}`, dflt) : v;
  };
  const bool = (key: string, dflt: boolean): boolean => {
    const v = raw[key];
    if (v === undefined) return dflt;
    return typeof v === 'boolean' ? v : note(`${key} must be true or false`, dflt);
  };
  const choice = <T extends string>(key: string, options: readonly T[]): T => {
    const v = raw[key];
    if (v === undefined) return options[0];
    return (options as readonly unknown[]).includes(v) ? (v as T) : note(`${key} must be one of ${options.map((o) => `"${o}"`).join(', ')}`, options[0]);
  };
  const cube = (): number | null => {
    const v = raw.maxCube;
    if (v === undefined) return 64;
    if (v === null) return null;
    const powerOfTwo = typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= CUBE_LIMIT && (v & (v - 1)) === 0;
    return powerOfTwo ? v : note(`maxCube must be a power of two from 1 to ${CUBE_LIMIT}, or null for no limit`, 64);
  };

  const matchLength = int('matchLength', 0, MAX_MATCH_LENGTH, 0);
  const money = matchLength === 0;
  const ruleset: BackgammonRuleset = {
    matchLength,
    crawford: bool('crawford', true),
    holland: bool('holland', false),
    cubeEnabled: bool('cubeEnabled', true),
    maxCube: cube(),
    jacoby: bool('jacoby', money),
    beavers: int('beavers', 0, 15, 0),
    raccoons: bool('raccoons', false),
    automaticDoubles: int('automaticDoubles', 0, 15, 0),
    openingRoll: choice('openingRoll', ['use-opening-dice', 'reroll-both-dice'] as const),
    autoRoll: bool('autoRoll', false),
    skipRollWhenClosedOut: bool('skipRollWhenClosedOut', false),
    backgammonIncludesBar: bool('backgammonIncludesBar', true),
    resignWhen: choice('resignWhen', ['own-turn', 'any-time'] as const),
    forbidRepeatLowerResignation: bool('forbidRepeatLowerResignation', true),
    jacobyAppliesToResignations: bool('jacobyAppliesToResignations', false),
    ...(bool('autoPlayForced', false) ? { autoPlayForced: true as const } : {}),
  };
  if (problem) return invalid(problem);
  if (!money) {
    const moneyOnly: [boolean, string][] = [
      [ruleset.jacoby, 'jacoby'],
      [ruleset.beavers > 0, 'beavers'],
      [ruleset.raccoons, 'raccoons'],
      [ruleset.automaticDoubles > 0, 'automaticDoubles'],
    ];
    const bad = moneyOnly.find(([on]) => on);
    if (bad) return invalid(`${bad[1]} applies to money play only (matchLength 0), not to a ${matchLength}-point match`);
  }
  if (ruleset.raccoons && ruleset.beavers === 0) return invalid('raccoons need beavers (a raccoon answers a beaver)');
  return ok(ruleset);
}

const NO_FIELD_ACTIONS = ['roll', 'double', 'take', 'drop', 'beaver', 'raccoon', 'acceptResignation', 'rejectResignation'] as const;
const LEVELS = ['single', 'gammon', 'backgammon'] as const;

export function parseAction(input: unknown): Result<BackgammonAction> {
  if (!isObject(input)) return invalid('an action must be a JSON object with a "type"');
  const type = input.type;
  if ((NO_FIELD_ACTIONS as readonly unknown[]).includes(type)) {
    const extra = unknownKey(input, ['type'], `a "${String(type)}" action`);
    return extra ? invalid(extra) : ok({ type } as BackgammonAction);
  }
  if (type === 'resign') {
    const extra = unknownKey(input, ['type', 'level'], 'a "resign" action');
    if (extra) return invalid(extra);
    if (!(LEVELS as readonly unknown[]).includes(input.level)) return invalid('a resignation needs "level": "single", "gammon" or "backgammon"');
    return ok({ type, level: input.level as (typeof LEVELS)[number] });
  }
  if (type === 'play') {
    const extra = unknownKey(input, ['type', 'moves'], 'a "play" action');
    if (extra) return invalid(extra);
    const moves = input.moves;
    if (!Array.isArray(moves) || moves.length < 1 || moves.length > 4) {
      return invalid('a play needs "moves": a list of 1 to 4 checker moves {from, to}');
    }
    const parsed: CheckerMove[] = [];
    for (let i = 0; i < moves.length; i++) {
      const m = parseMove(moves[i], i);
      if (!m.ok) return m;
      parsed.push(m.value);
    }
    return ok({ type, moves: parsed });
  }
  return invalid(`unknown action type ${JSON.stringify(type) ?? 'undefined'} (roll, play, double, take, drop, beaver, raccoon, resign, acceptResignation, rejectResignation)`);
}

/** A checker move in the mover's numbering: from 1..24 or "bar" (alias 25), to 1..24 or "off" (alias 0). */
function parseMove(input: unknown, index: number): Result<CheckerMove> {
  const where = `move ${index + 1}`;
  if (!isObject(input)) return invalid(`${where} must be an object {from, to}`);
  const extra = unknownKey(input, ['from', 'to'], where);
  if (extra) return invalid(extra);
  const { from, to } = input;
  const point = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 24;
  let f: number | 'bar';
  if (from === 'bar' || from === 25) f = 'bar';
  else if (point(from)) f = from as number;
  else return invalid(`${where}: "from" must be a point 1-24 or "bar" (25), got ${JSON.stringify(from) ?? 'nothing'}`);
  let t: number | 'off';
  if (to === 'off' || to === 0) t = 'off';
  else if (point(to)) t = to as number;
  else return invalid(`${where}: "to" must be a point 1-24 or "off" (0), got ${JSON.stringify(to) ?? 'nothing'}`);
  return ok({ from: f, to: t });
}
