import { fail, ok, type ReplayEntry, type Result, type Viewer } from '../../../engines/kit/index.js';
import { hashOf } from '../canonical.js';
import { isObject, MALFORMED, type StoredEvent } from '../stream.js';
import { type Chance, decodeGameEvent, type GameEvent, isChanceType } from './events.js';
import type { GameState } from './state.js';

/**
 * The event as a viewer may see it: a hidden chance outcome (a shuffled boneyard) is served as
 * its commitment, SHA-256(canonical JSON of the values), plus what the engine lets this viewer
 * see; an action through the engine's action view. Everything is public once the game ended.
 */
export function viewEvent(g: Pick<GameState, 'engine' | 'ended'>, e: StoredEvent, before: unknown, after: unknown, viewer: Viewer): StoredEvent {
  const { engine } = g;
  if (g.ended || (!engine.actionView && !engine.chanceView)) return e;
  const event = decodeGameEvent(e);
  if (!event.ok) return e;
  const typed = event.value;
  if (typed.type === 'ChanceDrawn' && typed.payload.chance.hidden) {
    const { values, ...rest } = typed.payload.chance;
    const view = engine.chanceView ? engine.chanceView(before, after, values, viewer) : null;
    return { ...e, payload: { chance: { ...rest, commitment: hashOf(values) }, view } };
  }
  if (typed.type === 'ActionTaken' && engine.actionView) {
    return { ...e, payload: { ...typed.payload, action: engine.actionView(before, after, typed.actor, typed.payload.action, viewer) } };
  }
  return e;
}

/**
 * A chance draw as served: its values, or, while a hidden draw is kept from the viewer, the
 * commitment to them (SHA-256 of their canonical JSON) in their place.
 */
export type ServedChance = Omit<Chance, 'values'> & ({ values: number[]; commitment?: undefined } | { values?: undefined; commitment: string });

/**
 * A game's event as a viewer is served it (viewEvent): as stored, but for a draw, which may hold
 * a commitment instead of its values and what the viewer is shown of it (`seen`; null when the
 * draw is public), and an action, which is the engine's view of it while the game runs.
 */
export type ServedGameEvent = Exclude<GameEvent, { type: 'ChanceDrawn' }> | { type: 'ChanceDrawn'; label: string; payload: { chance: ServedChance; seen: unknown } };

const isCountList = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => Number.isInteger(x));

/** The typed event of a served row: what viewEvent serves, read back with the shapes checked. */
export function decodeServedEvent(e: StoredEvent): Result<ServedGameEvent> {
  const decoded = decodeGameEvent(e);
  if (decoded.ok) {
    const event = decoded.value;
    return event.type === 'ChanceDrawn' ? ok({ ...event, payload: { chance: event.payload.chance, seen: null } }) : ok(event);
  }
  const p = e.payload;
  const c = p.chance;
  // A hidden draw served while the game runs: its commitment instead of its values, and what the viewer is shown.
  if (!isChanceType(e.type) || !isObject(c) || !isCountList(c.ranges) || typeof c.commitment !== 'string' || (c.source !== 'fair' && c.source !== 'supplied')) return decoded;
  const chance: ServedChance = { ranges: c.ranges, source: c.source, commitment: c.commitment, ...(c.hidden === true ? { hidden: true } : {}) };
  if (c.counter !== undefined) {
    if (!isCountList(c.counter) || c.counter.length !== 2) return fail(MALFORMED, "a draw's counter is [first, next)");
    chance.counter = [c.counter[0], c.counter[1]];
  }
  return ok({ type: 'ChanceDrawn', label: e.type, payload: { chance, seen: p.view ?? null } });
}

/** A game's events as replay entries, for its record format (timeouts marked for the formats that can say so). */
export function replayEntries(events: readonly StoredEvent[]): ReplayEntry[] {
  const entries: ReplayEntry[] = [];
  for (const stored of events) {
    const event = decodeGameEvent(stored);
    if (!event.ok) continue;
    const e = event.value;
    if (e.type === 'ChanceDrawn') entries.push({ kind: 'chance', values: e.payload.chance.values });
    else if (e.type === 'ActionTaken') entries.push({ kind: 'action', seat: e.actor, action: e.payload.action, ...(e.payload.auto ? { auto: true as const } : {}) });
    else if (e.type === 'Resigned') entries.push({ kind: 'resign', seat: e.actor });
    // Records have no clocks: a timeout that conceded the game replays as the seat's resignation.
    else if (e.type === 'TimedOut' && e.payload.rule === 'concede') entries.push({ kind: 'resign', seat: e.payload.seat, timedOut: true });
  }
  return entries;
}
