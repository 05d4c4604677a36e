import { EventEmitter } from 'node:events';
import { feedStream, gameEventStream } from '../../src/api/subscriptions.js';
import type { FeedReader } from '../../src/referee/application/player-feed.js';
import type { RefereeService } from '../../src/referee/application/referee.service.js';
import type { StoredEvent } from '../../src/referee/core/stream.js';
import type { FeedItem } from '../../src/referee/store/player-feed-store.js';

const event = (seq: number, type = 'ActionTaken') => ({ seq, type, actor: 0, moveId: null, bodyHash: null, payload: {}, createdAt: '', prevHash: '', hash: '' }) as StoredEvent;

/** A referee as gameEventStream uses it: the batches it tells (on `bus` here), its log, its game's head. */
function fakeReferee(stored: StoredEvent[], duringFirstEmptyRead: (bus: EventEmitter) => void) {
  const bus = new EventEmitter();
  let told = false;
  const referee = {
    followEvents: (_id: string, _viewer: unknown, tell: (events: StoredEvent[], version: number) => void) => {
      const listener = (a: { game: { version: number }; steps: { event: StoredEvent }[] }) =>
        tell(
          a.steps.map((s) => s.event),
          a.game.version,
        );
      bus.on('g', listener);
      return () => bus.off('g', listener);
    },
    events: async (_id: string, after: number) => {
      const page = stored.filter((e) => e.seq > after);
      if (page.length === 0 && !told) {
        told = true;
        duringFirstEmptyRead(bus);
      }
      return page;
    },
    game: async () => ({ ended: stored.at(-1)?.type === 'SeedRevealed', version: stored.length }),
  };
  return { referee: referee as unknown as RefereeService, bus };
}

async function take(stream: AsyncIterableIterator<StoredEvent>, n: number): Promise<number[]> {
  const seqs: number[] = [];
  const safetyNet = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`only ${seqs.join(',')} arrived`)), 10_000));
  while (seqs.length < n) seqs.push((await Promise.race([stream.next(), safetyNet])).value.seq);
  await stream.return?.();
  return seqs;
}

describe('a game event stream', () => {
  it('does not lose a catch-up told (without its events) while it was reading the log', async () => {
    const stored = [event(1), event(2)];
    const { referee } = fakeReferee(stored, (bus) => {
      // Another instance's move, caught up here just as the subscriber's read found the end of
      // the log: told by version only (its events are read from the log).
      stored.push(event(3));
      bus.emit('g', { gameId: 'g', game: { version: 3 }, steps: [] });
    });
    expect(await take(gameEventStream(referee, 'g', 0, 'spectator'), 3)).toEqual([1, 2, 3]);
  });

  it('fills a gap before a queued live event from the log, in order and once', async () => {
    const stored = [event(1)];
    const { referee, bus } = fakeReferee(stored, () => undefined);
    const stream = gameEventStream(referee, 'g', 0, 'spectator');
    const first = await stream.next();
    expect(first.value.seq).toBe(1);
    stored.push(event(2), event(3));
    // Event 3 is told with its batch; event 2 was only told elsewhere.
    bus.emit('g', { gameId: 'g', game: { version: 3 }, steps: [{ event: stored[2] }] });
    expect(await take(stream, 2)).toEqual([2, 3]);
  });
});

describe("a player's feed stream", () => {
  const item = (n: number): FeedItem => ({ id: `1-${n}`, type: 'game.your_turn', createdAt: new Date(0), data: { n } });

  /** A feed as feedStream reads it: `stored` served after the id given, `held` while some are not servable yet; `ring` wakes the reader. */
  function fakeFeed(stored: FeedItem[], duringRead: (ring: () => void) => void = () => undefined) {
    const bell = new EventEmitter();
    let held = false;
    const reader: FeedReader = {
      after: null,
      read: async (after) => {
        const from = after === null ? 0 : stored.findIndex((i) => i.id === after) + 1;
        const items = stored.slice(from, from + 2);
        duringRead(() => bell.emit('w'));
        return { items, held, full: items.length === 2 };
      },
      onWritten: (wake) => {
        bell.on('w', wake);
        return () => bell.off('w', wake);
      },
    };
    return { reader, ring: () => bell.emit('w'), hold: (h: boolean) => (held = h), listeners: () => bell.listenerCount('w') };
  }

  async function take(stream: AsyncIterableIterator<FeedItem>, n: number): Promise<number[]> {
    const got: number[] = [];
    let timer: NodeJS.Timeout | undefined;
    const safetyNet = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`only ${got.join(',')} arrived`)), 10_000);
    });
    try {
      while (got.length < n) got.push((await Promise.race([stream.next(), safetyNet])).value.data.n as number);
    } finally {
      clearTimeout(timer);
    }
    return got;
  }

  it('serves what is stored page after page, then each notice written on this instance at once (no poll waited for), in order and once', async () => {
    const stored = [item(1), item(2), item(3)];
    const feed = fakeFeed(stored);
    const stream = feedStream(feed.reader, 60_000);
    expect(await take(stream, 3)).toEqual([1, 2, 3]);
    stored.push(item(4), item(5));
    feed.ring();
    expect(await take(stream, 2)).toEqual([4, 5]);
    await stream.return?.();
    expect(feed.listeners()).toBe(0);
  });

  it('does not lose a notice written while it was reading', async () => {
    const stored = [item(1)];
    let rung = false;
    const feed = fakeFeed(stored, (ring) => {
      if (rung) return;
      rung = true;
      stored.push(item(2));
      ring();
    });
    const stream = feedStream(feed.reader, 60_000);
    expect(await take(stream, 2)).toEqual([1, 2]);
    await stream.return?.();
  });

  it('reads again soon while notices are held back behind an older transaction, and ends its wait at once when completed', async () => {
    const stored: FeedItem[] = [];
    const feed = fakeFeed(stored);
    feed.hold(true);
    const stream = feedStream(feed.reader, 60_000);
    const next = stream.next();
    await new Promise((r) => setTimeout(r, 50));
    // The older transaction ended: the held notice is servable, found without a ring or a poll.
    stored.push(item(1));
    feed.hold(false);
    expect((await next).value.data.n).toBe(1);
    const waiting = stream.next();
    await stream.return?.();
    expect(await waiting).toEqual({ done: true, value: undefined });
  });
});
