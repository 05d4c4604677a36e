import { GraphQLError } from 'graphql';
import type { Viewer } from '../engines/kit/index.js';
import { type FeedItem, type FeedReader, type RefereeService, type StoredEvent, type TournamentEventsAppended, type TournamentService } from '../referee/index.js';
import type { GqlContext } from './caller.js';

/** How long to wait before reading the log again when it had nothing beyond what was served. */
const RETRY_READ_MS = 50;

/** Calls `told` with each batch of a stream's events stored from now on (as the subscriber may see them) and the version it reached, until the returned function is called. */
type Follow = (told: (events: StoredEvent[], version: number) => void) => () => void;

/** A stream's events as a subscription follows them: told as they are stored, read from the log. */
interface EventSource {
  follow: Follow;
  /** Stored events after `after`, a page at a time (empty when there are none). */
  read(after: number): Promise<StoredEvent[]>;
  /** Whether nothing more will come once `last` is served (a finished game or tournament). */
  over(last: number): Promise<boolean>;
  /** The type of the event a stream ends with. */
  lastType: string;
}

/**
 * A stream's events for one subscriber: the stored ones after `afterSeq`, then live ones as they
 * are appended. The listener is attached before reading the past, so nothing falls in between;
 * versions the bus told of are never forgotten (a batch caught up from another instance may
 * arrive late, out of order or overlapping: events are served in seq order, each once, gaps read
 * from the log). Completing the subscription (`return`) ends the wait for the next event at once,
 * so the listener is dropped and the subscription's slot freed without waiting for another event.
 * The stream completes by itself after its last event.
 */
function eventStream(source: EventSource, afterSeq: number): AsyncIterableIterator<StoredEvent> {
  return stoppable(async function* run(stopped): AsyncGenerator<StoredEvent> {
    const queue: StoredEvent[] = [];
    let told = 0;
    let wake: (() => void) | null = null;
    const unfollow = source.follow((events, version) => {
      queue.push(...events);
      told = Math.max(told, version);
      wake?.();
    });
    try {
      let last = afterSeq;
      let readLog = true;
      for (;;) {
        // The past, and then only what the bus told of without its events (caught up from the log).
        let readSome = false;
        const didRead = readLog;
        if (readLog) {
          readLog = false;
          for (;;) {
            const page = await source.read(last);
            for (const e of page) yield e;
            if (page.length === 0) break;
            readSome = true;
            last = page.at(-1)!.seq;
            if (page.at(-1)!.type === source.lastType) return;
          }
          // Subscribed past the end of a finished stream: nothing more will come.
          if (await source.over(last)) return;
        }
        queue.sort((a, b) => a.seq - b.seq);
        while (queue.length > 0 && queue[0].seq <= last + 1) {
          const e = queue.shift()!;
          if (e.seq > last) {
            last = e.seq;
            yield e;
            if (e.type === source.lastType) return;
          }
        }
        const behind = queue.length > 0 || told > last;
        // Behind what the bus told: read the log at once, unless this turn's read found nothing
        // new (a catch-up still being stored here): then again after a short wait. A wake-up that
        // arrives during a read is not lost.
        if (behind && (readSome || !didRead)) {
          readLog = true;
          continue;
        }
        const woke = await Promise.race([
          new Promise<'woke'>((resolve) => {
            wake = () => resolve('woke');
            if (behind) setTimeout(wake, RETRY_READ_MS);
          }),
          stopped,
        ]);
        wake = null;
        if (woke === 'stopped') return;
      }
    } finally {
      unfollow();
    }
  });
}

/**
 * The items `run` yields, as an iterator whose completion (`return`, `throw`) settles `stopped`
 * at once: `run` races its waits with it, so a subscription's listener is dropped and its slot
 * freed without waiting for another item.
 */
function stoppable<T>(run: (stopped: Promise<'stopped'>) => AsyncGenerator<T>): AsyncIterableIterator<T> {
  let stop: () => void = () => undefined;
  const stopped = new Promise<'stopped'>((resolve) => {
    stop = () => resolve('stopped');
  });
  const items = run(stopped);
  return {
    next: () => items.next(),
    return: (value?: unknown) => {
      stop();
      return items.return(value as undefined);
    },
    throw: (err?: unknown) => {
      stop();
      return items.throw(err);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/** How often a player's stream looks for notices stored by other instances (this instance's wake it at once). */
const FEED_POLL_MS = 1000;
/** How soon it looks again when notices are committed but held back behind an older transaction still running. */
const FEED_HELD_RETRY_MS = 25;

/**
 * A player's notices for one reader: the stored ones after the reader's start, then each as it
 * is stored, in the feed's order, each once. Woken at once by this instance's writes, it polls
 * for the other instances'; it never ends by itself.
 */
export function feedStream(reader: FeedReader, pollMs = FEED_POLL_MS): AsyncIterableIterator<FeedItem> {
  return stoppable(async function* run(stopped): AsyncGenerator<FeedItem> {
    let rung = false;
    let wake: (() => void) | null = null;
    // Listening before the first read: a notice stored meanwhile rings, and is read next turn.
    const unlisten = reader.onWritten(() => {
      rung = true;
      wake?.();
    });
    let after = reader.after;
    try {
      for (;;) {
        rung = false;
        const page = await reader.read(after);
        for (const item of page.items) yield item;
        after = page.items.at(-1)?.id ?? after;
        if (page.full || rung) continue;
        let timer: NodeJS.Timeout | undefined;
        const woke = await Promise.race([
          new Promise<'woke'>((resolve) => {
            wake = () => resolve('woke');
            timer = setTimeout(wake, page.held ? FEED_HELD_RETRY_MS : pollMs);
          }),
          stopped,
        ]);
        clearTimeout(timer);
        wake = null;
        if (woke === 'stopped') return;
      }
    } finally {
      unlisten();
    }
  });
}

/** `events` with each passed through `f`; completing it completes `events` at once (not once the next event comes). */
export function mapped<T, U>(events: AsyncIterableIterator<T>, f: (e: T) => U): AsyncIterableIterator<U> {
  return {
    next: async () => {
      const r = await events.next();
      return r.done ? r : { done: false, value: f(r.value) };
    },
    return: async (value?: unknown) => {
      await events.return?.(value);
      return { done: true, value: undefined };
    },
    throw: async (err?: unknown) => {
      await events.throw?.(err);
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/** A game's events for one viewer (hidden information served as the viewer may see it); ends after `SeedRevealed`. */
export function gameEventStream(referee: RefereeService, gameId: string, afterSeq: number, viewer: Viewer): AsyncIterableIterator<StoredEvent> {
  return eventStream(
    {
      follow: (told) => referee.followEvents(gameId, viewer, told),
      read: (after) => referee.events(gameId, after, viewer),
      over: async (last) => {
        const game = await referee.game(gameId);
        return game.ended && last >= game.version;
      },
      // A finished game's stream always ends with GameEnded and SeedRevealed.
      lastType: 'SeedRevealed',
    },
    afterSeq,
  );
}

/** A tournament's events; ends after `TournamentFinished`. */
export function tournamentEventStream(service: TournamentService, tournamentId: string, afterSeq: number): AsyncIterableIterator<StoredEvent> {
  return eventStream(
    {
      follow: (told) => {
        const listener = (a: TournamentEventsAppended) => told(a.events, a.events.at(-1)?.seq ?? 0);
        service.bus.on(tournamentId, listener);
        return () => service.bus.off(tournamentId, listener);
      },
      read: (after) => service.events(tournamentId, after),
      over: async (last) => {
        const t = await service.tournament(tournamentId);
        return t.finished && last >= t.version;
      },
      lastType: 'TournamentFinished',
    },
    afterSeq,
  );
}

/** A notice as the stream and myEvents serve it. */
export const feedLine = (item: FeedItem) => ({ id: item.id, type: item.type, createdAt: item.createdAt.toISOString(), data: item.data });

/**
 * A subscription POSTed over HTTP is run as a one-shot query that never subscribes: its resolver
 * is then all that runs, and this says why. (Over graphql-ws the context has the connection's
 * params; over HTTP only the HTTP request.)
 */
export function requireWebSocket(ctx: GqlContext | undefined): void {
  if (ctx && !ctx.connectionParams && typeof ctx.req?.method === 'string')
    throw new GraphQLError('subscriptions are served over WebSocket (graphql-ws on /graphql), not over HTTP', { extensions: { code: 'WEBSOCKET_REQUIRED' } });
}
