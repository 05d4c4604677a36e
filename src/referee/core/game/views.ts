import type { ReplayEntry, Viewer } from '../../../engines/kit/index.js';
import { hashOf } from '../canonical.js';
import type { StoredEvent } from '../stream.js';
import { decodeGameEvent } from './events.js';
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
