import type { Viewer } from '../../engines/kit/index.js';
import type { EngineRegistry } from '../core/engine-registry.js';
import { RefereeError } from '../core/errors.js';
import { foldGameInSlices } from '../core/game/fold.js';
import type { GameState } from '../core/game/state.js';
import { viewEvent } from '../core/game/views.js';
import { type Folded, type StoredEvent, StreamError } from '../core/stream.js';
import type { EventStore } from '../store/event-store.js';
import { Lru } from './lru.js';
import type { Slicer } from './slices.js';

type Payload = StoredEvent['payload'];

/** One running hidden-information game, folded as far as its events were read. */
interface Entry {
  gameId: string;
  /** The state after the last event seen (null before the first fold). */
  folded: Folded<GameState> | null;
  /**
   * Indexed by seq - 1: for each event the views transform, its payload if every viewer is
   * served the same, else one per viewer (seats 0..n-1, then the spectator; equal ones share
   * an object); undefined for events served as stored. Shared by every read: never mutated.
   */
  payloads: (Payload | Payload[] | undefined)[];
  /** The fold in flight, resolving to the events it read: readers at once share it. */
  extending: Promise<StoredEvent[]> | null;
}

/**
 * Running hidden-information games held at most. Memory: per game, one folded state (with the
 * stream's command ids) plus, per hidden event (a Chicken Foot game's actions and shuffles), its
 * payload, or one per viewer when they differ (a drawn tile shown to its drawer only). Measured
 * on Chicken Foot: about 350 bytes per event, so about 0.2 MB for a classic double-9 game
 * (some 550 events) and 40 MB for 200 of them; a double-18 game played for 4000 events, 1.4 MB.
 */
const MAX_GAMES = 200;

/**
 * The events of running hidden-information games as each viewer may see them, served in time
 * linear in what is read: each game is folded once, on from where the last read left it,
 * keeping each hidden event's payload per viewer, instead of folded from its first event on
 * every read to know the states around each event. Stored events never change (the log is
 * append-only), so a view computed once stays right; a stream that does not continue the
 * cached state is folded again from its start. Finished games serve their events as stored and
 * are not held.
 */
export class EventViews {
  private readonly games: Lru<Entry>;

  constructor(
    private readonly store: EventStore,
    private readonly registry: EngineRegistry,
    private readonly slicer: Slicer,
    maxGames = MAX_GAMES,
  ) {
    this.games = new Lru(maxGames);
  }

  /** Events in (afterSeq, untilSeq] of a running hidden-information game, as `viewer` may see them. */
  async served(gameId: string, afterSeq: number, viewer: Viewer, untilSeq: number): Promise<StoredEvent[]> {
    const entry = this.entry(gameId);
    const fresh = await this.extend(entry, untilSeq);
    // The events the fold just read are the newest ones served; only older ones are read again.
    const first = fresh[0]?.seq ?? untilSeq + 1;
    const older = afterSeq + 1 < first ? await this.store.events(gameId, afterSeq, undefined, Math.min(untilSeq, first - 1)) : [];
    const events = older.concat(fresh.filter((e) => e.seq > afterSeq && e.seq <= untilSeq));
    const folded = entry.folded;
    if (folded?.ended) this.forget(gameId);
    if (!folded || events.length === 0) return [];
    if (viewer !== 'spectator' && !(Number.isInteger(viewer) && viewer >= 0 && viewer < folded.seatCount)) throw new RefereeError('INVALID_INPUT', `no seat ${viewer} in this game`);
    const slot = viewer === 'spectator' ? folded.seatCount : viewer;
    return events.map((e) => {
      const payloads = entry.payloads[e.seq - 1];
      if (!payloads) return e;
      return { ...e, payload: Array.isArray(payloads) ? payloads[slot] : payloads };
    });
  }

  /** Drops a game (it ended: its events are served as stored). */
  forget(gameId: string): void {
    this.games.delete(gameId);
  }

  /** Games held now. */
  get size(): number {
    return this.games.size;
  }

  private entry(gameId: string): Entry {
    const entry = this.games.peek(gameId) ?? { gameId, folded: null, payloads: [], extending: null };
    this.games.set(gameId, entry);
    return entry;
  }

  /**
   * Folds the game up to `untilSeq` (or as far as it is stored) unless it already is, one fold
   * at a time. Answers the events read on the way, in order: a run ending with the cached state.
   */
  private async extend(entry: Entry, untilSeq: number): Promise<StoredEvent[]> {
    let read: StoredEvent[] = [];
    while (entry.extending) read = joined(read, await entry.extending);
    if ((entry.folded?.version ?? 0) >= untilSeq) return read;
    entry.extending = this.fold(entry, untilSeq).finally(() => {
      entry.extending = null;
    });
    // Once: the store may hold fewer events than asked for.
    return joined(read, await entry.extending);
  }

  /** Reads the events after the cached state and folds them on from it; from the start if they do not continue it. */
  private async fold(entry: Entry, untilSeq: number): Promise<StoredEvent[]> {
    const from = entry.folded ?? undefined;
    const events = await this.store.events(entry.gameId, from?.version ?? 0, undefined, untilSeq);
    try {
      entry.folded = await this.slicer.run(
        foldGameInSlices(this.registry, entry.gameId, events, null, {
          from,
          onEvent: (e, _event, before, after) => {
            entry.payloads[e.seq - 1] = payloadsOf(e, before, after);
          },
        }),
      );
      return events;
    } catch (err) {
      // A failed fold leaves the entry half-advanced (the head's command ids are shared): start over.
      entry.folded = null;
      entry.payloads = [];
      if (!from || !(err instanceof StreamError)) {
        if (this.games.peek(entry.gameId) === entry) this.forget(entry.gameId);
        throw err;
      }
      return this.fold(entry, untilSeq);
    }
  }
}

/**
 * What each viewer is served of an event the views transform, computed as viewEvent serves a
 * running game: one payload if all are served the same, else one per viewer; undefined if the
 * event is served as stored.
 */
function payloadsOf(e: StoredEvent, before: GameState, after: GameState): Payload | Payload[] | undefined {
  const running = { engine: after.engine, ended: false };
  const viewers: Viewer[] = [...Array.from({ length: after.seatCount }, (_, seat) => seat), 'spectator'];
  const payloads: Payload[] = [];
  const distinct = new Map<string, Payload>();
  for (const viewer of viewers) {
    const served = viewEvent(running, e, before.state, after.state, viewer);
    if (served === e) return undefined;
    const key = JSON.stringify(served.payload);
    let payload = distinct.get(key);
    if (!payload) distinct.set(key, (payload = served.payload));
    payloads.push(payload);
  }
  return distinct.size === 1 ? payloads[0] : payloads;
}

/** Events read by successive folds: a fold from the start (it begins at or before the last read) replaces them. */
function joined(read: StoredEvent[], chunk: StoredEvent[]): StoredEvent[] {
  return chunk.length > 0 && chunk[0].seq <= (read.at(-1)?.seq ?? 0) ? chunk : read.concat(chunk);
}
