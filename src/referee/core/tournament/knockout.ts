import { type Result, fail, ok } from '../../../engines/kit/index.js';
import { type BracketName, bracketSize, knockoutRoundCount, losersRoundCount, losersRoundMatches } from './bracket-layout.js';
import type { Lots } from './lots.js';
import { type Rational, ZERO, add, cmp, sub } from './rational.js';
import type { GamePointsOrder, Participant, PointValues } from './types.js';

/**
 * Knockout (section 6 of docs/rules/tournaments.md): seeding, the bracket, advancement round by round,
 * deciding one match (K6.6-K6.8) and the final placings. Double elimination (K6.10) reuses the
 * bracket and the match rules with its own pairings.
 */

// The bracket's shape lives in bracket-layout.ts (the web page draws with it); its users import it from here too.
export { type BracketName, bracketSize, knockoutRoundCount, losersRoundCount, losersRoundMatches } from './bracket-layout.js';

/** K6.1: `rating` (default), the organizer's list, or lots. */
export type KnockoutSeeding = 'rating' | 'manual' | 'lots';

/** A bracket slot: a participant id, or empty (K6.5). */
export type Slot = string | null;

/** One match of a round; slot 0 is the upper slot (K6.4). Matches are numbered from 1. */
export interface KnockoutMatch {
  match: number;
  slots: [Slot, Slot];
}

/** A match once over: its winner advances, null when nobody does (K6.5, K6.8). */
export interface DecidedMatch extends KnockoutMatch {
  winner: Slot;
}

/** K6.9, K6.10: a participant's final place; tied participants share one. */
export interface Placing {
  participantId: string;
  place: number;
}

/**
 * K6.1: the participant ids in seed order (index 0 is seed 1). A manual list must name every
 * participant exactly once.
 */
export function knockoutSeeds(participants: readonly Participant[], mode: KnockoutSeeding, lots: Lots, manual?: readonly string[]): Result<string[]> {
  const byRegistration = [...participants].sort((a, b) => a.registrationNo - b.registrationNo);
  if (mode === 'lots') return ok(lots.shuffle('ko-seeding', byRegistration).map((p) => p.id));
  // T1.12 before round 1: everyone has 0 TP, so rating then registrationNo decide.
  if (mode === 'rating') return ok(byRegistration.sort((a, b) => b.rating - a.rating || a.registrationNo - b.registrationNo).map((p) => p.id));
  if (!manual) return fail('INVALID_INPUT', 'manual seeding needs the list of participants in seed order');
  const ids = new Set(participants.map((p) => p.id));
  const listed = new Set(manual);
  if (listed.size !== manual.length) return fail('INVALID_INPUT', 'the manual seeding names a participant more than once');
  const unknown = manual.find((id) => !ids.has(id));
  if (unknown !== undefined) return fail('INVALID_INPUT', `the manual seeding names ${unknown}, who is not a participant`);
  if (listed.size !== ids.size) return fail('INVALID_INPUT', `the manual seeding names ${listed.size} of the ${ids.size} participants`);
  return ok([...manual]);
}

/** K6.3: the seed held by each slot, slot 1 first. */
export function seedOrder(size: number): number[] {
  if (bracketSize(size) !== size) throw new RangeError(`a bracket size is a power of two >= 2, not ${size}`);
  let order = [1, 2];
  for (let k = 2; k < size; k *= 2) order = order.flatMap((s) => [s, 2 * k + 1 - s]);
  return order;
}

/** K6.3-K6.5: round 1 from the seeds (seed 1 first); seeds N+1..S are empty. */
export function firstRound(seeds: readonly string[]): KnockoutMatch[] {
  const slots = seedOrder(bracketSize(seeds.length)).map((s) => seeds[s - 1] ?? null);
  return pairSlots(slots);
}

/** K6.4: round t+1 from the winners of round t in match order (match i feeds match ceil(i/2)). */
export function nextRound(winners: readonly Slot[]): KnockoutMatch[] {
  if (winners.length < 2 || winners.length % 2 !== 0) throw new RangeError(`${winners.length} winners do not make a next round`);
  return pairSlots(winners);
}

const pairSlots = (slots: readonly Slot[]): KnockoutMatch[] => Array.from({ length: slots.length / 2 }, (_, i) => ({ match: i + 1, slots: [slots[2 * i], slots[2 * i + 1]] }));

/** How a match starts: with no game (K6.5), or with games between a better seed and the other. */
export type MatchOpening = { kind: 'KO_BYE'; winner: string } | { kind: 'EMPTY' } | { kind: 'GAMES'; betterSeed: string; other: string };

/**
 * K6.5, K6.6: a match facing an empty slot needs no game. Otherwise the better seed (smaller seed
 * number; `seeds` holds seed 1 first) takes seat 0 in game 1. After upsets the better seed may
 * hold the lower slot.
 */
export const openMatch = (match: KnockoutMatch, seeds: readonly string[]): MatchOpening => opening(match, (upper, lower) => seeds.indexOf(upper) < seeds.indexOf(lower));

function opening(match: KnockoutMatch, upperIsBetter: (upper: string, lower: string) => boolean): MatchOpening {
  const [upper, lower] = match.slots;
  if (upper === null) return lower === null ? { kind: 'EMPTY' } : { kind: 'KO_BYE', winner: lower };
  if (lower === null) return { kind: 'KO_BYE', winner: upper };
  return upperIsBetter(upper, lower) ? { kind: 'GAMES', betterSeed: upper, other: lower } : { kind: 'GAMES', betterSeed: lower, other: upper };
}

/** K6.7: one step of the organizer's `koTieRule`. */
export type KoTieStep = { kind: 'REPLAY'; games: number } | { kind: 'GAME_POINTS' } | { kind: 'LOTS' };

/** K6.7: the typed `koTieRule`, ending in LOTS. */
export type KoTieRule = KoTieStep[];

/** K6.7: the default `[REPLAY(1), GAME_POINTS, LOTS]`. */
export const DEFAULT_KO_TIE_RULE: Readonly<KoTieRule> = [{ kind: 'REPLAY', games: 1 }, { kind: 'GAME_POINTS' }, { kind: 'LOTS' }];

const REPLAY = /^REPLAY\(([1-9]\d{0,8})\)$/;

/**
 * K6.7: reads the organizer's list (`REPLAY(k)`, `GAME_POINTS`, `LOTS`); absent means the
 * default (null too). `LOTS` is appended when missing; nothing may follow it, since it always decides.
 */
export function parseTieRule(input: unknown): Result<KoTieRule> {
  if (input === undefined || input === null) return ok([...DEFAULT_KO_TIE_RULE]);
  if (!Array.isArray(input)) return fail('INVALID_INPUT', 'koTieRule is a list such as ["REPLAY(1)", "GAME_POINTS", "LOTS"]');
  const steps: KoTieRule = [];
  for (const [i, item] of input.entries()) {
    if (steps.at(-1)?.kind === 'LOTS') return fail('INVALID_INPUT', `koTieRule item ${i + 1} follows LOTS, which always decides`);
    const replay = typeof item === 'string' ? REPLAY.exec(item) : null;
    if (replay) steps.push({ kind: 'REPLAY', games: Number(replay[1]) });
    else if (item === 'GAME_POINTS' || item === 'LOTS') steps.push({ kind: item });
    else return fail('INVALID_INPUT', `koTieRule item ${i + 1} (${JSON.stringify(item)}) is none of REPLAY(k) with k >= 1, GAME_POINTS, LOTS`);
  }
  if (steps.at(-1)?.kind !== 'LOTS') steps.push({ kind: 'LOTS' });
  return ok(steps);
}

/** K6.7, L9.6: the label of a match's tie lot. */
export const koTieLabel = (bracket: BracketName, round: number, match: number): string => `ko-tie|${bracket}|r${round}|m${match}`;

/** One game of a match (R3.1-R3.4): game points exist for played games only, by seat. */
export type MatchGame =
  | { kind: 'PLAYED'; seats: [string, string]; winner: string | null; gamePoints: [Rational, Rational] }
  | { kind: 'FORFEIT'; seats: [string, string]; winner: string }
  | { kind: 'DOUBLE_FORFEIT'; seats: [string, string] };

export interface MatchInput {
  /** The match's games so far, in the order played (regular games, then replays). */
  games: readonly MatchGame[];
  gamesPerMatch: number;
  tieRule: Readonly<KoTieRule>;
  points: PointValues;
  /** Seat 0 in game 1, and the side lot 0 sends through (K6.6, K6.7). */
  betterSeed: string;
  other: string;
  gamePointsOrder: GamePointsOrder;
  lots: Lots;
  /** `koTieLabel(...)` of this match. */
  label: string;
}

/** What settled a match. */
export type DecidedBy = 'TP' | 'REPLAY' | 'GAME_POINTS' | 'LOTS' | 'FORFEIT';

/** The match is over (winner null after a double forfeit), or one more game must be played. */
export type MatchState = { kind: 'DECIDED'; winner: string; by: DecidedBy } | { kind: 'DECIDED'; winner: null; by: 'DOUBLE_FORFEIT' } | { kind: 'NEXT_GAME'; seats: [string, string]; replay: boolean };

/**
 * K6.6-K6.8: decides a match from its games, or names the next game. Seats alternate from game 1
 * (better seed at seat 0), and a replay swaps the previous game's seats, so game i always has
 * the better seed at seat 0 when i is odd. A call that reaches LOTS draws from `lots`, whose
 * counters continue (L9.2): ask once the last game is in, and record the decision.
 */
export function decideMatch(input: MatchInput): Result<MatchState> {
  const { games, gamesPerMatch, betterSeed, other } = input;
  if (!Number.isInteger(gamesPerMatch) || gamesPerMatch < 1) return fail('INVALID_INPUT', `gamesPerMatch must be a positive integer, not ${gamesPerMatch}`);
  if (betterSeed === other) return fail('INVALID_INPUT', 'a match needs two different participants');
  const seatsOf = (i: number): [string, string] => (i % 2 === 0 ? [betterSeed, other] : [other, betterSeed]);
  for (const [i, game] of games.entries()) {
    const [s0, s1] = seatsOf(i);
    if (game.seats[0] !== s0 || game.seats[1] !== s1) return fail('INVALID_INPUT', `game ${i + 1} of the match must seat ${s0} at seat 0 and ${s1} at seat 1`);
    if (game.kind !== 'DOUBLE_FORFEIT' && game.winner !== null && !game.seats.includes(game.winner)) return fail('INVALID_INPUT', `game ${i + 1} is won by ${game.winner}, who did not play it`);
  }

  // Games are read one at a time; a game missing where the rules need one is the next game.
  let next = 0;
  const decided = (state: MatchState): Result<MatchState> =>
    next === games.length ? ok(state) : fail('INVALID_INPUT', `the match was decided after game ${next}, but ${games.length} games are recorded`);
  const take = (): MatchGame | null => (next < games.length ? games[next++] : null);
  const nextGame = (replay: boolean): Result<MatchState> => ok({ kind: 'NEXT_GAME', seats: seatsOf(next), replay });
  /** K6.8: a forfeit ends the match at once, whichever game it is; the games after it count for nothing (§K6.8, In Arbiter). */
  const forfeit = (game: Exclude<MatchGame, { kind: 'PLAYED' }>): Result<MatchState> =>
    ok(game.kind === 'FORFEIT' ? { kind: 'DECIDED', winner: game.winner, by: 'FORFEIT' } : { kind: 'DECIDED', winner: null, by: 'DOUBLE_FORFEIT' });

  // K6.6: every regular game is played; TP (W/D/L) over them decide.
  const tp = new Map([
    [betterSeed, ZERO],
    [other, ZERO],
  ]);
  for (let g = 0; g < gamesPerMatch; g++) {
    const game = take();
    if (game === null) return nextGame(false);
    if (game.kind !== 'PLAYED') return forfeit(game);
    for (const id of game.seats) {
      const earned = game.winner === null ? input.points.draw : game.winner === id ? input.points.win : input.points.loss;
      tp.set(id, add(tp.get(id)!, earned));
    }
  }
  const byTp = cmp(tp.get(betterSeed)!, tp.get(other)!);
  if (byTp !== 0) return decided({ kind: 'DECIDED', winner: byTp > 0 ? betterSeed : other, by: 'TP' });

  // K6.7: the organizer's steps, then LOTS, which always decides.
  for (const step of input.tieRule) {
    if (step.kind === 'LOTS') break;
    if (step.kind === 'REPLAY') {
      for (let k = 0; k < step.games; k++) {
        const game = take();
        if (game === null) return nextGame(true);
        if (game.kind !== 'PLAYED') return forfeit(game);
        if (game.winner !== null) return decided({ kind: 'DECIDED', winner: game.winner, by: 'REPLAY' });
      }
    } else {
      const byPoints = compareGamePoints(games.slice(0, next), betterSeed, input.gamePointsOrder);
      if (byPoints !== 0) return decided({ kind: 'DECIDED', winner: byPoints > 0 ? betterSeed : other, by: 'GAME_POINTS' });
    }
  }
  return decided({ kind: 'DECIDED', winner: input.lots.uniform(input.label, 2) === 0 ? betterSeed : other, by: 'LOTS' });
}

/** K6.7 GAME_POINTS: positive when `a` has the better total than its opponent over the games so far. */
function compareGamePoints(games: readonly MatchGame[], a: string, order: GamePointsOrder): number {
  let total = ZERO;
  for (const game of games) {
    // Only PLAYED games reach here: a forfeit would have ended the match.
    if (game.kind !== 'PLAYED') continue;
    const seatOfA = game.seats.indexOf(a);
    total = add(total, sub(game.gamePoints[seatOfA], game.gamePoints[1 - seatOfA]));
  }
  const byTotal = cmp(total, ZERO);
  return order === 'higher' ? byTotal : -byTotal;
}

/**
 * K6.9: the placings of a knockout of `count` participants from the matches decided so far, by
 * round (round 1 first; a match still played is left out). With k = log2(S) rounds (K6.2), not
 * the rounds paired so far, the losers of round t share place 2^(k-t) + 1 and the final's winner
 * is 1st: only who has lost is placed, whenever it is asked (before the final, after an early
 * finish). Both sides of a double forfeit lose their round. With a third-place match (K6.11,
 * match 2 of the last round) the semi-finals' losers are placed by it, 3rd and 4th; whoever a
 * semi-final puts out without a third-place match to play (a double forfeit) is 4th.
 */
export function knockoutPlacings(count: number, rounds: readonly (readonly DecidedMatch[])[], thirdPlace = false): Placing[] {
  const k = knockoutRoundCount(count);
  const withThird = thirdPlace && k >= 2;
  const placings: Placing[] = [];
  const final = rounds[k - 1]?.find((m) => m.match === 1);
  if (final?.winner) placings.push({ participantId: final.winner, place: 1 });
  const third = withThird ? rounds[k - 1]?.find((m) => m.match === 2) : undefined;
  if (third?.winner) placings.push({ participantId: third.winner, place: 3 });
  for (let t = rounds.length; t >= 1; t--) {
    for (const match of rounds[t - 1]) {
      let place = 2 ** (k - t) + 1;
      if (withThird && t === k && match.match === 2) place = 4;
      // K6.11: a semi-final's one loser plays on for 3rd; a double forfeit's two are out, 4th.
      else if (withThird && t === k - 1) {
        if (match.winner !== null) continue;
        place = 4;
      }
      for (const id of losers(match)) placings.push({ participantId: id, place });
    }
  }
  return placings;
}

/** K6.11: the third-place match, match 2 of the last round, between the semi-finals' losers (an absent loser is an empty slot, K6.5). */
export const thirdPlaceMatch = (semiFinals: readonly DecidedMatch[]): KnockoutMatch => {
  const [a, b] = matchLosers(semiFinals);
  return { match: 2, slots: [a ?? null, b ?? null] };
};

/** The participants a match eliminates or sends down: whoever played it and did not win. */
const losers = (match: DecidedMatch): string[] => match.slots.filter((s): s is string => s !== null && s !== match.winner);

/** The participant each match sends down or out, in match order: null for a bye, an empty match or a double forfeit. */
export const matchLosers = (round: readonly DecidedMatch[]): Slot[] => round.map((m) => (m.winner === null ? null : (losers(m)[0] ?? null)));

/** K6.10: the WB round whose losers enter LB round j: WB1 for LB1, WB(j+1) for LB(2j), none for LB(2j+1). */
export const winnersRoundFeeding = (lbRound: number): number | null => (lbRound === 1 ? 1 : lbRound % 2 === 0 ? lbRound / 2 + 1 : null);

/**
 * K6.10: LB round j, in match order, from the winners of LB round j-1 and the losers of the WB
 * round feeding it (`winnersRoundFeeding`). LB1 reads only the WB losers, LB(2j+1) only the LB
 * winners. An absent loser (a WB bye or double forfeit) is an empty slot.
 */
export function losersRound(lbRound: number, lbWinners: readonly Slot[], wbLosers: readonly Slot[]): KnockoutMatch[] {
  if (lbRound === 1) return pairSlots(wbLosers);
  if (lbRound % 2 === 1) return pairSlots(lbWinners);
  const j = lbRound / 2;
  const m = lbWinners.length;
  if (wbLosers.length !== m) throw new RangeError(`LB${lbRound} pairs ${m} LB winners with ${wbLosers.length} WB losers`);
  // LB(2j) match i meets the loser of WB(j+1) match M+1-i for odd j, match i for even j.
  return lbWinners.map((winner, i) => ({ match: i + 1, slots: [winner, wbLosers[j % 2 === 1 ? m - 1 - i : i]] }));
}

/** K6.10: the grand final (or its reset) between the WB champion, upper, and the LB champion. */
export const grandFinal = (wbChampion: Slot, lbChampion: Slot): KnockoutMatch => ({ match: 1, slots: [wbChampion, lbChampion] });

/** K6.10: the WB champion takes seat 0 in game 1, so it plays the better seed's part in decideMatch (lot 0 too). */
export const openGrandFinal = (match: KnockoutMatch): MatchOpening => opening(match, () => true);

/** K6.10: a second grand final when the LB champion beat the WB champion and bracketReset is on. */
export const secondGrandFinalNeeded = (first: DecidedMatch, bracketReset: boolean): boolean => bracketReset && first.slots[0] !== null && first.winner !== null && first.winner === first.slots[1];

/** K6.10: the place shared by the losers of LB round j: 3 + the matches of the LB rounds after it. */
export function losersRoundPlace(size: number, lbRound: number): number {
  let place = 3;
  for (let j = lbRound + 1; j <= losersRoundCount(size); j++) place += losersRoundMatches(size, j);
  return place;
}

/**
 * K6.10 placings from the WB rounds, LB rounds and grand finals (one or two) so far. As K6.9 does
 * for a single knockout (*In Arbiter* at K6.9), only who is out is placed: a match still played
 * (winner undefined) places nobody, and the champion is named only once the grand finals are
 * over (not after a first grand final the LB champion won while `bracketReset` calls a second).
 * Both sides of a WB double forfeit are out at once; they share the place of the LB round their
 * losses would have entered (2nd when S = 2), since they would forfeit it too (K6.8).
 */
export function doubleEliminationPlacings(
  size: number,
  wb: readonly (readonly DecidedMatch[])[],
  lb: readonly (readonly DecidedMatch[])[],
  grandFinals: readonly DecidedMatch[],
  bracketReset = true,
): Placing[] {
  const over = (m: DecidedMatch | undefined): m is DecidedMatch => m !== undefined && m.winner !== undefined;
  const finals = grandFinals.filter(over);
  const last = finals.length === grandFinals.length ? finals[finals.length - 1] : undefined;
  const decisive = last !== undefined && !(finals.length === 1 && secondGrandFinalNeeded(last, bracketReset));
  const placings: Placing[] = [];
  if (decisive && last.winner) placings.push({ participantId: last.winner, place: 1 });
  const place = (ids: readonly string[], at: number) => {
    for (const id of ids) placings.push({ participantId: id, place: at });
  };
  /** WB double forfeits out in WB round t, placed with the LB round their losers would enter. */
  const wbDoubleForfeits = (t: number): string[] => (wb[t - 1] ?? []).filter((m) => m.winner === null).flatMap((m) => m.slots.filter((s): s is string => s !== null));
  if (decisive) place(losers(last), 2);
  if (size === 2) place(wbDoubleForfeits(1), 2);
  for (let j = losersRoundCount(size); j >= 1; j--) {
    const at = losersRoundPlace(size, j);
    place((lb[j - 1] ?? []).filter(over).flatMap(losers), at);
    const feeding = winnersRoundFeeding(j);
    if (feeding !== null) place(wbDoubleForfeits(feeding), at);
  }
  return placings;
}
