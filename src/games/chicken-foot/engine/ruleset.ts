/**
 * Rulesets: the two presets (docs/rules/chicken-foot.md §12) and every option (§13), validated and
 * resolved to concrete values (a table of hand sizes becomes the number for this player count,
 * "players"/"required"/"classic" become numbers), so the rest of the engine never re-derives them.
 */
import { Codes, fail, ok, type Result, type Seat } from '../../../engines/kit/index.js';
import { setSize } from './tiles.js';

export type Preset = 'classic' | 'malta-cross';
export type StartDoubleSource = 'setAside' | 'fromHand';
export type MissingStartDouble = 'drawUntilFound' | 'burn';
export type FirstToAct = 'finder' | 'nextAfterPlacer' | 'placer';
export type DrawPolicy = 'one' | 'untilPlayable';
export type BlockedDetection = 'immediate' | 'passCycle';
export type TieBreak = 'zeroRounds' | 'lowestPositiveRound';
export type GameEnd = 'allDoubles' | { targetScore: number };
/** What a seat that runs out of time (a game with a clock) gets: auto-play until the round ends, or the game forfeited. */
export type OnTimeout = 'autoPlay' | 'forfeit';

export interface ChickenFootRuleset {
  preset: Preset;
  players: number;
  /** N of the double-N set. */
  setMax: number;
  handSize: number;
  firstDealer: Seat | 'random';
  startDoubleSource: StartDoubleSource;
  missingStartDouble: MissingStartDouble;
  firstToAct: FirstToAct;
  hubRequiredArms: number;
  hubCapacity: number;
  toesPerFoot: number;
  drawPolicy: DrawPolicy;
  mustPlayDrawn: boolean;
  /** Tiles that must stay in the yard and can never be drawn. */
  yardReserve: number;
  blockedDetection: BlockedDetection;
  emptyYardEndsRound: boolean;
  doubleBlankValue: number;
  blankEndValue: number | null;
  lastTileDoublePenalty: number;
  lastTileCall: { enabled: boolean; penaltyDraws: number };
  gameEnd: GameEnd;
  tieBreak: TieBreak[];
  /** Only "forfeit" is written: the default, auto-play, is left out so rulesets stored before the option keep their form and hash. */
  onTimeout?: 'forfeit';
  /** The referee plays a seat's only legal action (a draw, a pass, a single play). Written only when on, like `onTimeout`. */
  autoPlayForced?: true;
}

export const MIN_PLAYERS = 2;
export const MAX_PLAYERS = 8;
export const MIN_SET_MAX = 6;
export const MAX_SET_MAX = 18;
/** Upper bound for score-like options (values, penalties); anything larger is a typo. */
const MAX_POINTS = 1000;
const MAX_TARGET_SCORE = 100_000;
const MAX_PENALTY_DRAWS = 10;
const MAX_SET_TILES = setSize(MAX_SET_MAX);
/** Below this many tiles in the yard after the deal, rulesetWarnings warns (docs/rules/chicken-foot.md §3). */
export const SMALL_YARD = 10;

/** Classic hand sizes by player count (docs/rules/chicken-foot.md §3.1). */
export const CLASSIC_HAND_SIZES: Readonly<Record<number, number>> = { 2: 21, 3: 14, 4: 11, 5: 8, 6: 7, 7: 6, 8: 5 };

type Input = Record<string, unknown>;

const OPTION_KEYS = [
  'preset',
  'players',
  'setMax',
  'handSize',
  'firstDealer',
  'startDoubleSource',
  'missingStartDouble',
  'firstToAct',
  'hubRequiredArms',
  'hubCapacity',
  'toesPerFoot',
  'drawPolicy',
  'mustPlayDrawn',
  'yardReserve',
  'blockedDetection',
  'emptyYardEndsRound',
  'doubleBlankValue',
  'blankEndValue',
  'lastTileDoublePenalty',
  'lastTileCall',
  'gameEnd',
  'tieBreak',
  'onTimeout',
  'autoPlayForced',
] as const;

class InvalidRuleset {
  constructor(readonly message: string) {}
}

function invalid(message: string): never {
  throw new InvalidRuleset(message);
}

const isObject = (x: unknown): x is Input => typeof x === 'object' && x !== null && !Array.isArray(x);

function integer(input: Input, key: string, min: number, max: number, fallback: number): number {
  const v = input[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v)) invalid(`${key} must be an integer, got ${JSON.stringify(v)}`);
  if (v < min || v > max) invalid(`${key} must be between ${min} and ${max}, got ${v}`);
  return v;
}

function choice<T extends string>(input: Input, key: string, allowed: readonly T[], fallback: T): T {
  const v = input[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'string' || !allowed.includes(v as T)) invalid(`${key} must be one of ${allowed.map((a) => `"${a}"`).join(', ')}, got ${JSON.stringify(v)}`);
  return v as T;
}

function boolean(input: Input, key: string, fallback: boolean): boolean {
  const v = input[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'boolean') invalid(`${key} must be true or false, got ${JSON.stringify(v)}`);
  return v;
}

/**
 * An integer option that may also be given as its keyword ("players", "required", "classic",
 * "random"). Null when absent or the keyword: the caller derives the value.
 */
function integerOr(input: Input, key: string, keyword: string, min: number, max: number): number | null {
  const v = input[key];
  if (v === undefined || v === keyword) return null;
  if (typeof v !== 'number') invalid(`${key} must be an integer or "${keyword}", got ${JSON.stringify(v)}`);
  return integer(input, key, min, max, NaN);
}

function handSizeFor(v: unknown, players: number, fallback: number): number {
  if (v === undefined) return fallback;
  if (isObject(v)) {
    const table: Input = {};
    for (const k of Object.keys(v)) {
      if (!/^[2-8]$/.test(k)) invalid(`handSize table keys must be player counts 2 to 8, got "${k}"`);
      table[`handSize["${k}"]`] = v[k];
      integer(table, `handSize["${k}"]`, 1, MAX_SET_TILES, NaN);
    }
    if (v[String(players)] === undefined) invalid(`handSize table has no entry for ${players} players`);
    return v[String(players)] as number;
  }
  return integer({ handSize: v }, 'handSize', 1, MAX_SET_TILES, NaN);
}

function tieBreaks(v: unknown, fallback: TieBreak[]): TieBreak[] {
  if (v === undefined) return fallback;
  const allowed: TieBreak[] = ['zeroRounds', 'lowestPositiveRound'];
  if (!Array.isArray(v)) invalid(`tieBreak must be an array of "zeroRounds", "lowestPositiveRound", got ${JSON.stringify(v)}`);
  v.forEach((step, i) => {
    if (!allowed.includes(step as TieBreak)) invalid(`tieBreak[${i}] must be "zeroRounds" or "lowestPositiveRound", got ${JSON.stringify(step)}`);
    if (v.indexOf(step) !== i) invalid(`tieBreak lists "${step}" twice`);
  });
  return v.slice() as TieBreak[];
}

function gameEnd(v: unknown): GameEnd {
  if (v === undefined || v === 'allDoubles') return 'allDoubles';
  if (!isObject(v)) invalid(`gameEnd must be "allDoubles" or { "targetScore": n }, got ${JSON.stringify(v)}`);
  const extra = Object.keys(v).find((k) => k !== 'targetScore');
  if (extra) invalid(`gameEnd has an unknown key "${extra}" (only targetScore)`);
  if (v.targetScore === undefined) invalid('gameEnd.targetScore is required');
  return { targetScore: integer(v, 'targetScore', 1, MAX_TARGET_SCORE, NaN) };
}

function lastTileCall(v: unknown): { enabled: boolean; penaltyDraws: number } {
  if (v === undefined) return { enabled: false, penaltyDraws: 1 };
  if (!isObject(v)) invalid(`lastTileCall must be { "enabled": boolean, "penaltyDraws"?: n }, got ${JSON.stringify(v)}`);
  const extra = Object.keys(v).find((k) => k !== 'enabled' && k !== 'penaltyDraws');
  if (extra) invalid(`lastTileCall has an unknown key "${extra}" (only enabled, penaltyDraws)`);
  if (typeof v.enabled !== 'boolean') invalid('lastTileCall.enabled must be true or false');
  return { enabled: v.enabled, penaltyDraws: integer(v, 'penaltyDraws', 0, MAX_PENALTY_DRAWS, 1) };
}

function resolve(input: unknown): ChickenFootRuleset {
  if (!isObject(input)) invalid('the ruleset must be a JSON object such as { "preset": "classic", "players": 4 }');
  const unknownKey = Object.keys(input).find((k) => !(OPTION_KEYS as readonly string[]).includes(k));
  // The typed inputs take the target score as targetScore; in JSON it is gameEnd's.
  const hint = unknownKey === 'targetScore' ? ' (the target score is gameEnd: { "targetScore": n })' : '';
  if (unknownKey) invalid(`unknown ruleset option "${unknownKey}"${hint}; allowed: ${OPTION_KEYS.join(', ')}`);
  const preset = choice<Preset>(input, 'preset', ['classic', 'malta-cross'], 'classic');
  const classic = preset === 'classic';
  if (input.players === undefined) invalid(`players is required (${MIN_PLAYERS} to ${MAX_PLAYERS})`);
  const players = integer(input, 'players', MIN_PLAYERS, MAX_PLAYERS, NaN);
  const setMax = integer(input, 'setMax', MIN_SET_MAX, MAX_SET_MAX, 9);
  const tiles = setSize(setMax);
  const handSize = handSizeFor(input.handSize, players, classic ? CLASSIC_HAND_SIZES[players] : 7);

  const firstDealer = integerOr(input, 'firstDealer', 'random', 0, players - 1) ?? 'random';
  const startDoubleSource = choice<StartDoubleSource>(input, 'startDoubleSource', ['setAside', 'fromHand'], classic ? 'setAside' : 'fromHand');
  const setAside = startDoubleSource === 'setAside';
  const missingStartDouble = choice<MissingStartDouble>(input, 'missingStartDouble', ['drawUntilFound', 'burn'], 'drawUntilFound');
  if (missingStartDouble === 'burn' && setAside) invalid('missingStartDouble "burn" needs startDoubleSource "fromHand": a set-aside double is always found');
  const firstToAct = choice<FirstToAct>(input, 'firstToAct', ['finder', 'nextAfterPlacer', 'placer'], setAside ? 'finder' : 'nextAfterPlacer');
  if (firstToAct === 'finder' && !setAside) invalid('firstToAct "finder" needs startDoubleSource "setAside"; with "fromHand" use "placer" or "nextAfterPlacer"');
  if (firstToAct === 'placer' && setAside) invalid('firstToAct "placer" needs startDoubleSource "fromHand"; with "setAside" use "finder" or "nextAfterPlacer"');

  const hubRequiredArms = integerOr(input, 'hubRequiredArms', 'players', 1, setMax) ?? (classic || input.hubRequiredArms === 'players' ? players : 4);

  if (hubRequiredArms > setMax) invalid(`hubRequiredArms (${hubRequiredArms}) cannot exceed setMax (${setMax}): the hub double has only ${setMax} tiles that match it`);
  if (classic && (hubRequiredArms < players || hubRequiredArms > 8)) invalid(`classic hubRequiredArms must be between the number of players (${players}) and 8, got ${hubRequiredArms}`);
  const hubCapacity = integerOr(input, 'hubCapacity', 'required', 1, setMax) ?? hubRequiredArms;
  if (hubCapacity < hubRequiredArms) invalid(`hubCapacity (${hubCapacity}) must be at least hubRequiredArms (${hubRequiredArms})`);
  const toesPerFoot = integer(input, 'toesPerFoot', 1, setMax - 1, 3);

  const yardReserve = integerOr(input, 'yardReserve', 'classic', 0, tiles) ?? (input.yardReserve === 'classic' || classic ? (players === 2 ? 2 : 1) : 0);
  const dealable = tiles - (setAside ? 1 : 0) - yardReserve;
  if (players * handSize > dealable) {
    invalid(
      `${players} hands of ${handSize} need ${players * handSize} tiles, but a double-${setMax} set (${tiles} tiles) ` +
        `leaves only ${dealable} to deal` +
        (setAside ? ' after setting the starting double aside' : '') +
        (yardReserve > 0 ? ` and keeping a reserve of ${yardReserve}` : '') +
        ` (players x handSize <= ${dealable})`,
    );
  }

  return {
    preset,
    players,
    setMax,
    handSize,
    firstDealer,
    startDoubleSource,
    missingStartDouble,
    firstToAct,
    hubRequiredArms,
    hubCapacity,
    toesPerFoot,
    drawPolicy: choice<DrawPolicy>(input, 'drawPolicy', ['one', 'untilPlayable'], 'one'),
    mustPlayDrawn: boolean(input, 'mustPlayDrawn', classic),
    yardReserve,
    blockedDetection: choice<BlockedDetection>(input, 'blockedDetection', ['immediate', 'passCycle'], 'immediate'),
    emptyYardEndsRound: boolean(input, 'emptyYardEndsRound', false),
    doubleBlankValue: integer(input, 'doubleBlankValue', 0, MAX_POINTS, classic ? 0 : 50),
    blankEndValue: input.blankEndValue == null ? null : integer(input, 'blankEndValue', 0, MAX_POINTS, NaN),
    lastTileDoublePenalty: integer(input, 'lastTileDoublePenalty', 0, MAX_POINTS, 0),
    lastTileCall: lastTileCall(input.lastTileCall),
    gameEnd: gameEnd(input.gameEnd),
    tieBreak: tieBreaks(input.tieBreak, classic ? [] : ['zeroRounds', 'lowestPositiveRound']),
    ...(choice<OnTimeout>(input, 'onTimeout', ['autoPlay', 'forfeit'], 'autoPlay') === 'forfeit' ? { onTimeout: 'forfeit' as const } : {}),
    ...(boolean(input, 'autoPlayForced', false) ? { autoPlayForced: true as const } : {}),
  };
}

/** Validates ruleset input (`{ preset?, players, ...overrides }`) and fills the preset's defaults. */
export function parseRuleset(input: unknown): Result<ChickenFootRuleset> {
  try {
    return ok(resolve(input));
  } catch (e) {
    if (e instanceof InvalidRuleset) return fail(Codes.INVALID_INPUT, `invalid Chicken Foot ruleset: ${e.message}`);
    throw e;
  }
}

/** Tiles in the yard right after the deal (before any search draws). */
export function yardAfterDeal(r: ChickenFootRuleset): number {
  return setSize(r.setMax) - (r.startDoubleSource === 'setAside' ? 1 : 0) - r.players * r.handSize;
}

/** Advice that does not make a ruleset invalid (docs/rules/chicken-foot.md §3: warn when the yard after the deal is small). */
export function rulesetWarnings(r: ChickenFootRuleset): string[] {
  const yard = yardAfterDeal(r);
  return yard < SMALL_YARD ? [`the yard after the deal holds only ${yard} tiles (fewer than ${SMALL_YARD}); consider a larger set or smaller hands`] : [];
}
