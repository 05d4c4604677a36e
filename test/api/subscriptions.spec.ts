import { EventEmitter } from 'node:events';
import { gameEventStream } from '../../src/api/subscriptions.js';
import type { RefereeService } from '../../src/referee/application/referee.service.js';
import type { StoredEvent } from '../../src/referee/core/stream.js';

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
