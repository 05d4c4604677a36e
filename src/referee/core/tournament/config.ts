import { type Engine, fail, ok, type Result } from '../../../engines/kit/index.js';
import { canonicalJson, hashOf } from '../canonical.js';
import type { EngineRegistry } from '../engine-registry.js';
import { parseTimeControl, storedTimeControl, type TimeControl } from '../game/clock.js';
import { isCleanText } from '../text.js';
import { cmp, format, parse, type Rational, rat, ZERO } from './rational.js';
import { defaultTieBreaks, parseTieBreaks } from './standings.js';
import { parsePlacementTables, tableByePoints } from './tables.js';
import { type KoTieStep, parseTieRule } from './knockout.js';
import { parseSchedule, type ScheduleConfig } from './schedule-config.js';

/** K6.7 steps in the organizer's written form, as recorded: REPLAY(1), GAME_POINTS, LOTS. */
export const writtenTieRule = (steps: readonly KoTieStep[]): string[] => steps.map((s) => (s.kind === 'REPLAY' ? `REPLAY(${s.games})` : s.kind));
import { type Format, type GamePointsOrder, type TieBreak, TWO_SEAT_FORMATS } from './types.js';

/**
 * A tournament's configuration (V10.1), fixed at creation and recorded whole in
 * TournamentCreated: everything pairing, scoring and standings depend on. Points are written
 * as exact rationals ("1", "1/2").
 */
export interface TournamentConfig {
  name: string;
  kind: string;
  /** The ruleset in the engine's complete, validated form: every game of the tournament uses it. */
  ruleset: unknown;
  rulesetHash: string;
  /** Seats per game: 2 for 2-seat formats, T (TA7.1) for tables. */
  seatCount: number;
  format: Format;
  /** Rounds to play (round-robin and knockout: given by the participants, set at round 1). */
  rounds: number | null;
  points: { win: string; draw: string; loss: string };
  byePoints: string;
  lateEntryPoints: string;
  requestedByePoints: string;
  maxRequestedByes: number;
  tieBreaks: TieBreak[];
  gamePointsOrder: GamePointsOrder;
  rrNumbering: 'lots' | 'rating';
  koSeeding: 'rating' | 'lots' | 'manual';
  gamesPerMatch: number;
  /** K6.7, written form (read with parseTieRule). */
  koTieRule: string[];
  /** K6.11: the semi-finals' losers play for 3rd place (knockout only; written only when on). */
  thirdPlaceMatch?: true;
  /** K6.10: a second grand final after the LB champion wins the first (doubleElimination only, always written there). */
  bracketReset?: boolean;
  /** K6.12 (groupsKnockout only): the group count, or the group size it follows from, and how many advance from each group. */
  groupCount?: number;
  groupSize?: number;
  advancePerGroup?: number;
  minSeats: number;
  /**
   * Tables: the ruleset of a game at each table size from minSeats to T (TA7.3 seats a remainder
   * at smaller tables): the organizer's ruleset with that many players, in complete form.
   */
  tableRulesets: Record<string, unknown>;
  /** TA7.7: placement points per table size ("3": ["2","1","0"]); sizes not listed use the default. */
  placementPoints: Record<string, string[]>;
  tableByePoints: string;
  tableSeating: 'greedy' | 'avoidRepeats';
  /** Whether participants may register themselves (P2.1) and withdraw themselves (P2.3). */
  openRegistration: boolean;
  selfWithdrawal: boolean;
  /** R3.10: participants report their over-the-board games' results (written only when true). */
  playerReports?: true;
  /** Its games are rated (docs/ratings.md): every participant must be a player (written only when true). */
  rated?: true;
  /**
   * The clock every game of the tournament is created with, in its stored form (as GameCreated
   * records it). Absent: no clock (written only when there is one, so the configurations recorded
   * before tournaments had clocks stay complete).
   */
  timeControl?: TimeControl;
  /** Its start, registration window, check-in and automatic pairings (P2.9-P2.11); absent: none. */
  schedule?: ScheduleConfig;
}

/** What an organizer gives; every field but kind and format has a default. */
export interface TournamentConfigInput {
  name?: unknown;
  kind?: unknown;
  ruleset?: unknown;
  format?: unknown;
  rounds?: unknown;
  points?: { win?: unknown; draw?: unknown; loss?: unknown } | null;
  byePoints?: unknown;
  lateEntryPoints?: unknown;
  requestedByePoints?: unknown;
  maxRequestedByes?: unknown;
  tieBreaks?: unknown;
  rrNumbering?: unknown;
  koSeeding?: unknown;
  gamesPerMatch?: unknown;
  koTieRule?: unknown;
  thirdPlaceMatch?: unknown;
  bracketReset?: unknown;
  groupCount?: unknown;
  groupSize?: unknown;
  advancePerGroup?: unknown;
  minSeats?: unknown;
  placementPoints?: unknown;
  tableByePoints?: unknown;
  tableSeating?: unknown;
  tableRulesets?: unknown;
  openRegistration?: unknown;
  selfWithdrawal?: unknown;
  playerReports?: unknown;
  rated?: unknown;
  /** As createGame takes it (seconds: see parseTimeControl), or as a recorded configuration has it. */
  timeControl?: unknown;
  /** See ScheduleInput. */
  schedule?: unknown;
}

const FORMATS: readonly Format[] = ['roundRobin', 'doubleRoundRobin', 'swiss', 'knockout', 'doubleElimination', 'groupsKnockout', 'tables'];
const MAX_ROUNDS = 64;
const MAX_NAME = 120;

const invalid = (message: string): Result<never> => fail('INVALID_INPUT', message);

/** An integer or half (T1.8), or any exact number 0 or more (`halves: false`: table points); null when it is not one. */
function pointValue(input: unknown, fallback: Rational, halves = true): Rational | null {
  if (input === undefined || input === null || input === '') return fallback;
  if (typeof input !== 'string' && typeof input !== 'number') return null;
  const r = parse(input);
  return r && r.n >= 0 && (!halves || r.d === 1 || r.d === 2) ? r : null;
}

function oneOf<T extends string>(input: unknown, allowed: readonly T[], fallback: T): T | null {
  if (input === undefined || input === null) return fallback;
  return allowed.includes(input as T) ? (input as T) : null;
}

function whole(input: unknown, fallback: number, lo: number, hi: number): number | null {
  if (input === undefined || input === null) return fallback;
  return Number.isInteger(input) && (input as number) >= lo && (input as number) <= hi ? (input as number) : null;
}

/**
 * The ruleset at each table size 2..T that the game can seat: the organizer's ruleset with
 * `players` set to that size (Chicken Foot seats 2-8). Recorded ones are checked instead.
 */
function rulesetsBySize(engine: Engine, ruleset: unknown, recorded: unknown, seatCount: number): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  if (recorded !== undefined && recorded !== null) {
    if (typeof recorded !== 'object' || Array.isArray(recorded)) return null;
    for (const [size, r] of Object.entries(recorded)) {
      const parsed = engine.parseRuleset(r);
      if (!parsed.ok || canonicalJson(parsed.value) !== canonicalJson(r) || engine.seatCount(parsed.value) !== Number(size)) return null;
      out[size] = parsed.value;
    }
    return out;
  }
  for (let size = 2; size <= seatCount; size++) {
    const base = typeof ruleset === 'object' && ruleset !== null ? ruleset : {};
    const parsed = engine.parseRuleset({ ...base, players: size });
    if (parsed.ok && engine.seatCount(parsed.value) === size) out[String(size)] = parsed.value;
  }
  return out;
}

/** K6.12: the group options of a groupsKnockout (a count or a size, default groups of 4; 2 advance by default), refused for other formats. */
function groupOptions(input: TournamentConfigInput, fmt: Format): Result<{ groupCount?: number; groupSize?: number; advancePerGroup?: number }> {
  const given = (v: unknown) => v !== undefined && v !== null;
  if (fmt !== 'groupsKnockout') {
    if (given(input.groupCount) || given(input.groupSize) || given(input.advancePerGroup)) return invalid('groupCount, groupSize and advancePerGroup are for the groupsKnockout format (K6.12)');
    return ok({});
  }
  if (given(input.groupCount) && given(input.groupSize)) return invalid('give groupCount or groupSize, not both (K6.12)');
  const advancePerGroup = whole(input.advancePerGroup, 2, 1, 16);
  if (advancePerGroup === null) return invalid('advancePerGroup: 1 to 16');
  if (given(input.groupCount)) {
    const groupCount = whole(input.groupCount, 0, 1, 64);
    return groupCount === null ? invalid('groupCount: 1 to 64') : ok({ groupCount, advancePerGroup });
  }
  const groupSize = whole(input.groupSize, 4, 2, 32);
  return groupSize === null ? invalid('groupSize: 2 to 32') : ok({ groupSize, advancePerGroup });
}

/** The game a tournament plays: its engine, its ruleset complete and validated, its seats per game, and the format they fit. */
export interface TournamentGame {
  kind: string;
  engine: Engine;
  ruleset: unknown;
  seatCount: number;
  format: Format;
}

/**
 * The game of a tournament's configuration (its kind, ruleset and format), or why a tournament
 * cannot play it: an unknown kind, a ruleset its engine refuses, or seats the format does not take
 * (2-seat formats; tables for 3 or more, TA7.1). The one check both createTournament and
 * tournamentRulesetCheck make.
 */
export function parseTournamentGame(input: Pick<TournamentConfigInput, 'kind' | 'ruleset' | 'format'>, registry: EngineRegistry): Result<TournamentGame> {
  if (typeof input.kind !== 'string' || !registry.get(input.kind)) return invalid(`unknown game kind "${String(input.kind)}"; this referee plays: ${registry.kinds().join(', ')}`);
  const engine = registry.get(input.kind)!;
  const ruleset = engine.parseRuleset(input.ruleset ?? {});
  if (!ruleset.ok) return invalid(`the ruleset is invalid: ${ruleset.error.message}`);
  const seatCount = engine.seatCount(ruleset.value);
  const format = oneOf(input.format, FORMATS, 'swiss');
  if (!format) return invalid(`format must be one of ${FORMATS.join(', ')}`);
  const twoSeat = TWO_SEAT_FORMATS.includes(format);
  if (twoSeat && seatCount !== 2) return invalid(`the ${format} format is for 2-seat games; this ruleset seats ${seatCount} (use the tables format)`);
  if (!twoSeat && seatCount < 3) return invalid(`the tables format is for games of 3 or more seats; this ruleset seats ${seatCount}`);
  return ok({ kind: input.kind, engine, ruleset: ruleset.value, seatCount, format });
}

/** The complete configuration, or the first thing wrong with the input. */
export function parseConfig(input: TournamentConfigInput, registry: EngineRegistry): Result<TournamentConfig> {
  const name = input.name ?? '';
  if (typeof name !== 'string' || name.length > MAX_NAME || !isCleanText(name))
    return invalid(`a tournament name is a text of at most ${MAX_NAME} characters, well-formed and without control characters`);
  const game = parseTournamentGame(input, registry);
  if (!game.ok) return game;
  const { kind, engine, ruleset, seatCount, format: fmt } = game.value;
  const twoSeat = TWO_SEAT_FORMATS.includes(fmt);
  let rounds: number | null = null;
  if (fmt === 'swiss' || fmt === 'tables') {
    rounds = whole(input.rounds, 0, 1, MAX_ROUNDS);
    if (!rounds) return invalid(`rounds: a ${fmt} tournament needs its number of rounds (1-${MAX_ROUNDS})`);
  } else if (input.rounds !== undefined && input.rounds !== null) return invalid(`rounds: a ${fmt} tournament's rounds follow from its participants`);

  const win = pointValue(input.points?.win, rat(1));
  const draw = pointValue(input.points?.draw, rat(1, 2));
  const loss = pointValue(input.points?.loss, ZERO);
  if (!win || !draw || !loss) return invalid('points: win, draw and loss are whole numbers or halves, 0 or more');
  if (win.n === 0 || cmp(win, draw) < 0 || cmp(draw, loss) < 0) return invalid('points: win > 0 and win >= draw >= loss (T1.8)');
  const placement = parsePlacementTables(input.placementPoints ?? {});
  if (!placement.ok) return placement;
  // TA7.9: a table bye is worth the average placement points of a full table.
  const tableBye = tableByePoints(seatCount, placement.value);
  const byePoints = pointValue(input.byePoints, twoSeat ? win : tableBye, twoSeat);
  if (!byePoints || (twoSeat && cmp(byePoints, win) > 0)) return invalid('byePoints: a whole number or half, at most the points of a win');
  const lateEntry = pointValue(input.lateEntryPoints, ZERO, twoSeat);
  if (!lateEntry || cmp(lateEntry, twoSeat ? draw : tableBye) > 0) return invalid('lateEntryPoints: at most a draw (at most a table bye in the tables format) (P2.2)');
  const requestedBye = pointValue(input.requestedByePoints, twoSeat ? draw : tableBye, twoSeat);
  if (!requestedBye || cmp(requestedBye, twoSeat ? win : tableBye) > 0) return invalid('requestedByePoints: a whole number or half, at most a win');
  const maxRequestedByes = whole(input.maxRequestedByes, 1, 0, MAX_ROUNDS);
  if (maxRequestedByes === null) return invalid('maxRequestedByes: a whole number, 0 or more');

  // K6.9, K6.10: a knockout or double elimination ranks by placings, not by tie-breaks.
  const tieBreaks =
    fmt === 'knockout' || fmt === 'doubleElimination' ? ok([]) : input.tieBreaks === undefined || input.tieBreaks === null ? ok(defaultTieBreaks(fmt)) : parseTieBreaks(input.tieBreaks, fmt);
  if (!tieBreaks.ok) return tieBreaks;
  const rrNumbering = oneOf(input.rrNumbering, ['lots', 'rating'] as const, 'lots');
  if (!rrNumbering) return invalid('rrNumbering: lots or rating');
  const koSeeding = oneOf(input.koSeeding, ['rating', 'lots', 'manual'] as const, 'rating');
  if (!koSeeding) return invalid('koSeeding: rating, lots or manual');
  const gamesPerMatch = whole(input.gamesPerMatch, 1, 1, 15);
  if (gamesPerMatch === null) return invalid('gamesPerMatch: 1 to 15');
  const koTieRule = parseTieRule(input.koTieRule ?? undefined);
  if (!koTieRule.ok) return koTieRule;
  const thirdPlaceMatch = input.thirdPlaceMatch ?? false;
  if (typeof thirdPlaceMatch !== 'boolean') return invalid('thirdPlaceMatch: true or false');
  if (thirdPlaceMatch && fmt !== 'knockout' && fmt !== 'groupsKnockout') return invalid('thirdPlaceMatch: a third-place match is for the knockout and groupsKnockout formats (K6.11)');
  const groups = groupOptions(input, fmt);
  if (!groups.ok) return groups;
  const bracketReset = input.bracketReset ?? true;
  if (typeof bracketReset !== 'boolean') return invalid('bracketReset: true or false');
  if (input.bracketReset !== undefined && input.bracketReset !== null && fmt !== 'doubleElimination') return invalid('bracketReset: a bracket reset is for the doubleElimination format (K6.10)');

  const tableRulesets = twoSeat ? {} : rulesetsBySize(engine, input.ruleset ?? {}, input.tableRulesets, seatCount);
  if (tableRulesets === null) return invalid('tableRulesets: recorded rulesets per table size must be complete and seat that many');
  // TA7.1: the smallest table the game can be played at, unless the organizer raises it.
  const smallest = Math.min(...Object.keys(tableRulesets).map(Number), seatCount);
  const minSeats = whole(input.minSeats, Math.max(2, twoSeat ? 2 : smallest), Math.max(2, twoSeat ? 2 : smallest), seatCount);
  if (minSeats === null) return invalid(`minSeats: ${Math.max(2, smallest)} to ${seatCount} (TA7.1: the smallest table this ruleset seats, up to its size)`);
  const tableByeValue = pointValue(input.tableByePoints, tableBye, false);
  if (!tableByeValue) return invalid('tableByePoints: a number 0 or more, such as 1, "3/2" or 0.5');
  const tableSeating = oneOf(input.tableSeating, ['greedy', 'avoidRepeats'] as const, 'greedy');
  if (!tableSeating) return invalid('tableSeating: greedy or avoidRepeats');
  if (input.openRegistration !== undefined && input.openRegistration !== null && typeof input.openRegistration !== 'boolean') return invalid('openRegistration: true or false');
  if (input.selfWithdrawal !== undefined && input.selfWithdrawal !== null && typeof input.selfWithdrawal !== 'boolean') return invalid('selfWithdrawal: true or false');
  if (input.playerReports !== undefined && input.playerReports !== null && typeof input.playerReports !== 'boolean') return invalid('playerReports: true or false');
  if (input.rated !== undefined && input.rated !== null && typeof input.rated !== 'boolean') return invalid('rated: true or false');
  // A recorded configuration holds the stored form; an organizer gives seconds, refused as createGame refuses them.
  const recorded = storedTimeControl(input.timeControl);
  const timeControl = recorded ? ok(recorded) : parseTimeControl(input.timeControl);
  if (!timeControl.ok) return timeControl;
  const schedule = parseSchedule(input.schedule, fmt);
  if (!schedule.ok) return schedule;

  return ok({
    name,
    kind,
    ruleset,
    rulesetHash: hashOf(ruleset),
    seatCount,
    format: fmt,
    rounds,
    points: { win: format(win), draw: format(draw), loss: format(loss) },
    byePoints: format(byePoints),
    lateEntryPoints: format(lateEntry),
    requestedByePoints: format(requestedBye),
    maxRequestedByes,
    tieBreaks: tieBreaks.value,
    // T1.9: the game says whether its points are better higher or lower (Chicken Foot pips).
    gamePointsOrder: engine.pointsOrder ?? 'higher',
    rrNumbering,
    koSeeding,
    gamesPerMatch,
    koTieRule: writtenTieRule(koTieRule.value),
    // Written only when on, so configurations recorded before it existed stay complete.
    ...(thirdPlaceMatch ? { thirdPlaceMatch: true as const } : {}),
    ...(fmt === 'doubleElimination' ? { bracketReset } : {}),
    ...groups.value,
    minSeats,
    placementPoints: placement.value,
    tableByePoints: format(tableByeValue),
    tableSeating,
    tableRulesets,
    openRegistration: input.openRegistration === true,
    selfWithdrawal: input.selfWithdrawal === true,
    ...(input.playerReports === true ? { playerReports: true as const } : {}),
    ...(input.rated === true ? { rated: true as const } : {}),
    ...(timeControl.value ? { timeControl: timeControl.value } : {}),
    ...(schedule.value ? { schedule: schedule.value } : {}),
  });
}

/** Whether a recorded configuration is exactly what parsing it again gives (a fold's check). */
export function isCompleteConfig(config: TournamentConfig, registry: EngineRegistry): boolean {
  const again = parseConfig(config as unknown as TournamentConfigInput, registry);
  return again.ok && canonicalJson(again.value) === canonicalJson(config);
}
