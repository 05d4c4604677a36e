import { type Engine, type ReplayEntry, type Seat, seededRandom } from '../src/engines/kit/index.js';

/** Actions a generated record leaves out, so that games run to their natural end. */
const AVOID = new Set(['resign', 'double', 'beaver', 'raccoon', 'endSeason']);

export interface LongRecord {
  kind: string;
  ruleset: unknown;
  text: string;
  /** Replay entries the record holds (about the events an import stores). */
  entries: number;
}

/**
 * A finished game's record in the game's own format, played with random legal actions and random
 * dice (seeded, so the same arguments give the same text). Backgammon plays a match long enough
 * for about `bytes` of `.mat` text (one match is many games); other games play one whole game,
 * the longest of a few seeds, however long that is.
 */
export function longRecord(engine: Engine, bytes: number, seed = 1): LongRecord {
  if (engine.kind === 'backgammon') {
    // About 2.3 kB of .mat text a point of match length (measured with these random players).
    const ruleset = unwrapRuleset(engine, { matchLength: Math.max(1, Math.round(bytes / 2300)) });
    return recordOf(engine, ruleset, playToEnd(engine, ruleset, seed));
  }
  const ruleset = unwrapRuleset(engine, {});
  let longest: ReplayEntry<unknown>[] = [];
  for (let s = seed; s < seed + 8; s++) {
    const entries = playToEnd(engine, ruleset, s);
    if (entries.length > longest.length) longest = entries;
  }
  return recordOf(engine, ruleset, longest);
}

function recordOf(engine: Engine, ruleset: unknown, entries: ReplayEntry<unknown>[]): LongRecord {
  const names = Array.from({ length: engine.seatCount(ruleset) }, (_, i) => `Player ${i + 1}`);
  return { kind: engine.kind, ruleset, text: engine.exportRecord!(ruleset, entries, names), entries: entries.length };
}

function unwrapRuleset(engine: Engine, input: unknown): unknown {
  const parsed = engine.parseRuleset(input);
  if (!parsed.ok) throw new Error(`${engine.kind} ruleset: ${parsed.error.message}`);
  return parsed.value;
}

/** One game played to its end by random players that never resign, double or end a season early. */
function playToEnd(engine: Engine, ruleset: unknown, seed: number): ReplayEntry<unknown>[] {
  const rand = seededRandom(seed);
  let state = engine.init(ruleset);
  const entries: ReplayEntry<unknown>[] = [];
  while (!engine.outcome(state)) {
    const pending = engine.pendingChance(state);
    let entry: ReplayEntry<unknown>;
    if (pending) entry = { kind: 'chance', values: pending.ranges.map((n) => rand(n)) };
    else {
      const seats = engine.toAct(state);
      const seat: Seat = seats[rand(seats.length)];
      const legal = engine.legalActions(state, seat);
      const wanted = legal.filter((a) => !AVOID.has((a as { type?: string }).type ?? ''));
      const actions = wanted.length > 0 ? wanted : legal;
      entry = { kind: 'action', seat, action: actions[rand(actions.length)] };
    }
    const next = entry.kind === 'chance' ? engine.resolveChance(state, entry.values) : engine.apply(state, entry.seat, entry.action);
    if (!next.ok) throw new Error(`${engine.kind}: the engine refused its own legal step: ${next.error.message}`);
    state = next.value;
    entries.push(entry);
  }
  return entries;
}
