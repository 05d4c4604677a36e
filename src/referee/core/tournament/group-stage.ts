import { ok, type Result } from '../../../engines/kit/index.js';
import { boardMatch, knockoutStageMatches, type MatchBoard, matchBoards } from './brackets.js';
import type { TournamentConfig } from './config.js';
import { checkGroups, groupCountFor, type GroupOptions, groupRound, groupStageRoundCount, groupsOf, seedsFromPlaces, snakeGroups } from './groups.js';
import { historyOf } from './history.js';
import { type DecidedMatch, knockoutPlacings, knockoutRoundCount, knockoutSeeds, openMatch, type Placing } from './knockout.js';
import type { Lots } from './lots.js';
import { ZERO } from './rational.js';
import { standings } from './standings.js';
import { pointValues, type TournamentState, withdrawnBefore } from './state.js';
import { roundEntry } from './types.js';

/**
 * A group stage feeding a knockout (format `groupsKnockout`, K6.12 in docs/rules/tournaments.md),
 * as tournament rounds: rounds 1..R are the groups' round-robins side by side (R the longest), then
 * the knockout of the groups' first `advancePerGroup`, seeded from their places. Round 1's order is
 * the seeds the groups are snaked from; the knockout's first round's order lists every participant
 * by group place (its first G * advancePerGroup are the knockout's seeds), so the verifier
 * recomputes both and the placings read them back.
 */

const options = (config: TournamentConfig): GroupOptions => ({
  ...(config.groupCount !== undefined ? { groupCount: config.groupCount } : {}),
  ...(config.groupSize !== undefined ? { groupSize: config.groupSize } : {}),
  advancePerGroup: config.advancePerGroup ?? 2,
});

/** K6.12: the rounds the event takes, once round 1's seeds are known: the group stage, then log2(S) knockout rounds. */
export function groupsKnockoutRounds(config: TournamentConfig, seeds: readonly string[]): number {
  const groups = snakeGroups(seeds, groupCountFor(options(config), seeds.length));
  return groupStageRoundCount(groups) + knockoutRoundCount(groups.length * options(config).advancePerGroup);
}

/** The pairing of round `round`: group games (one game each, RR4.6 walkovers for who withdrew), or knockout matches. */
export function groupsKnockoutBoards(t: TournamentState, round: number, lots: Lots): Result<{ boards: MatchBoard[]; byes: string[]; rest: null; warnings: string[]; order?: string[] }> {
  const done = (boards: MatchBoard[], order?: string[]) => ok({ boards, byes: [], rest: null, warnings: [], ...(order ? { order } : {}) });
  if (round === 1) {
    const entrants = t.participants.filter((p) => p.withdrawnAfterRound === null);
    const counted = checkGroups(options(t.config), entrants.length);
    if (!counted.ok) return counted;
    // K6.12: seeds as a knockout's (K6.1), then snaked into the groups.
    const seeded = knockoutSeeds(entrants, t.config.koSeeding, lots, t.settings[1]?.seeds ?? undefined);
    if (!seeded.ok) return seeded;
    return done(groupBoards(t, snakeGroups(seeded.value, counted.value), 1), seeded.value);
  }
  const groups = groupsOf(t)!;
  const stage = groupStageRoundCount(groups);
  if (round <= stage) return done(groupBoards(t, groups, round));
  const order = round === stage + 1 ? seedsFromPlaces(groupPlaces(t, groups, stage, lots)) : t.rounds[stage].order!;
  const seeds = order.slice(0, groups.length * options(t.config).advancePerGroup);
  const boards = matchBoards(t, round, knockoutStageMatches(t, round, stage + 1, seeds), (m) => openMatch(m, seeds));
  return done(boards, round === stage + 1 ? order : undefined);
}

function groupBoards(t: TournamentState, groups: readonly (readonly string[])[], round: number): MatchBoard[] {
  return groupRound(groups, round).flatMap((g) =>
    g.boards.map((seats) => {
      const walkover = seats.find((s) => withdrawnBefore(t, s, round)) ?? null;
      return { seats: [...seats], games: walkover ? [] : [[...seats]], manual: false, walkover };
    }),
  );
}

/**
 * K6.12: each group's members in final order after the stage: its round-robin standings (TB8,
 * the configured tie-breaks) over its own games. A round in which a member rests (RR4.4), or its
 * group's round-robin is already over, counts as its REST.
 */
export function groupPlaces(t: TournamentState, groups: readonly (readonly string[])[], stage: number, lots: Lots): string[][] {
  const all = historyOf(t, stage);
  const playing = Array.from({ length: stage }, (_, r) => new Set(groupRound(groups, r + 1).flatMap((g) => g.boards.flat())));
  return groups.map((members) => {
    const history = new Map(
      members.map((id) => [id, all.get(id)!.map((e, r) => (e.kind === 'ABSENT' && !playing[r].has(id) && !withdrawnBefore(t, id, r + 1) ? roundEntry(r + 1, 'REST', ZERO) : e))]),
    );
    const table = standings({
      participants: t.participants.filter((p) => members.includes(p.id)),
      history,
      rounds: stage,
      points: pointValues(t.config),
      tieBreaks: t.config.tieBreaks,
      gamePointsOrder: t.config.gamePointsOrder,
      format: 'twoSeat',
      lots,
    });
    return table.rows.map((r) => r.participantId);
  });
}

/**
 * K6.12 placings: nobody during the group stage; then the knockout's placings (K6.9, K6.11) for
 * who advanced, and who did not by group place: every group's (A+1)-th shares the place after the
 * knockout's, then every group's (A+2)-th, and so on.
 */
export function groupsKnockoutPlacings(t: TournamentState): Placing[] {
  const groups = groupsOf(t);
  if (!groups) return [];
  const stage = groupStageRoundCount(groups);
  const order = t.rounds[stage]?.order;
  if (!order) return [];
  const advance = options(t.config).advancePerGroup;
  const entrants = groups.length * advance;
  const rounds: DecidedMatch[][] = t.rounds.slice(stage).map((r) => r.boards.flatMap((b) => (b.winner === undefined ? [] : [boardMatch(b)])));
  const placings = knockoutPlacings(entrants, rounds, t.config.thirdPlaceMatch === true);
  let next = 0;
  let place = entrants + 1;
  for (let p = 1; next < order.length; p++) {
    const tier = order.slice(next, next + groups.filter((g) => g.length >= p).length);
    next += tier.length;
    if (p <= advance) continue;
    for (const id of tier) placings.push({ participantId: id, place });
    place += tier.length;
  }
  return placings;
}
