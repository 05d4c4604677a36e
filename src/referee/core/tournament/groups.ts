import { fail, ok, type Result } from '../../../engines/kit/index.js';
import { groupCountFor, type GroupOptions } from './bracket-layout.js';
import { roundRobinRound, roundRobinRoundCount } from './round-robin.js';

/**
 * A group stage feeding a knockout, the pure rules (K6.12 in docs/rules/tournaments.md): how many
 * groups, who is in which (snake seeding), what each tournament round of the stage holds, and the
 * order group places give the knockout's seeds. group-stage.ts runs it as a tournament format.
 */

export { groupCountFor, type GroupOptions } from './bracket-layout.js';

/**
 * K6.12 snake seeding: seed i (index 0 is seed 1) goes to row floor(i / G); even rows fill groups
 * 1..G, odd rows G..1. Group sizes differ by at most one. Each group lists its members in seed order.
 */
export function snakeGroups(seeds: readonly string[], groupCount: number): string[][] {
  const groups: string[][] = Array.from({ length: groupCount }, () => []);
  seeds.forEach((id, i) => {
    const row = Math.floor(i / groupCount);
    const col = i % groupCount;
    groups[row % 2 === 0 ? col : groupCount - 1 - col].push(id);
  });
  return groups;
}

/** K6.12: whether `n` participants make the configured groups: every group of 2 or more, at least `advancePerGroup` each, 2 or more advancing. */
export function checkGroups(options: GroupOptions, n: number): Result<number> {
  const g = groupCountFor(options, n);
  const smallest = Math.floor(n / g);
  if (g < 1 || smallest < 2) return fail('INVALID_INPUT', `${n} participants do not make ${g} groups of 2 or more`);
  if (options.advancePerGroup > smallest) return fail('INVALID_INPUT', `advancePerGroup is ${options.advancePerGroup}, but a group of ${n} participants in ${g} groups can have only ${smallest}`);
  if (g * options.advancePerGroup < 2) return fail('INVALID_INPUT', 'the knockout needs at least 2 participants: raise advancePerGroup or the group count');
  return ok(g);
}

/** K6.12: the group stage's rounds: the longest single round-robin among the groups (RR4.2). */
export const groupStageRoundCount = (groups: readonly (readonly string[])[]): number => Math.max(...groups.map((g) => roundRobinRoundCount(g.length, false)));

/** One group's games in a tournament round of the stage: the round-robin round of that number (none once its round-robin is over), and who rests. */
export interface GroupRound {
  group: number;
  boards: [string, string][];
  rest: string | null;
}

/** K6.12, RR4.3: round `round` of the stage, group by group; each group's pairing numbers are its members in seed order. */
export function groupRound(groups: readonly (readonly string[])[], round: number): GroupRound[] {
  return groups.map((members, i) => {
    if (round > roundRobinRoundCount(members.length, false)) return { group: i + 1, boards: [], rest: null };
    const scheduled = roundRobinRound(members.length, false, round);
    return {
      group: i + 1,
      boards: scheduled.boards.map((b) => [members[b.seats[0] - 1], members[b.seats[1] - 1]] as [string, string]),
      rest: scheduled.rest === null ? null : members[scheduled.rest - 1],
    };
  });
}

/**
 * K6.12 seeding from group places: place by place (every group's 1st, then every group's 2nd, ...);
 * within an odd place the groups come 1, 2, ..., G, within an even place 1, G, G-1, ..., 2. So
 * with two advancing from each of G groups (G*2 a power of two), round 1 sets group g's winner
 * against the runner-up of group g+1 (group G's against group 1's): never two of one group.
 * `places[g]` is group g+1's members in final order; the answer lists every participant.
 */
export function seedsFromPlaces(places: readonly (readonly string[])[]): string[] {
  const g = places.length;
  const deepest = Math.max(...places.map((p) => p.length));
  const order: string[] = [];
  for (let place = 1; place <= deepest; place++) {
    const groups = place % 2 === 1 ? Array.from({ length: g }, (_, i) => i) : [0, ...Array.from({ length: g - 1 }, (_, i) => g - 1 - i)];
    for (const i of groups) if (places[i][place - 1] !== undefined) order.push(places[i][place - 1]);
  }
  return order;
}

/** The groups of a tournament whose round 1 is paired (its order is the seeds, K6.12), else null. */
export function groupsOf(t: { config: Partial<GroupOptions>; rounds: readonly { order?: string[] }[] }): string[][] | null {
  const seeds = t.rounds[0]?.order;
  if (!seeds) return null;
  return snakeGroups(seeds, groupCountFor({ advancePerGroup: t.config.advancePerGroup ?? 2, ...t.config }, seeds.length));
}
