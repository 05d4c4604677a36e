import { Freshness } from '../../src/referee/application/freshness.js';
import { HeldStreams, type StreamSource } from '../../src/referee/application/held-streams.js';
import type { StreamHead } from '../../src/referee/core/stream.js';

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((r) => setTimeout(r, 10));
};

/**
 * The streams held by an instance stay as fresh as the store when its listening connection comes
 * back (a failover): appends stored while it was away were told to nobody, so they are swept.
 */
describe('freshness once the listening connection is back', () => {
  it('sweeps once more after a sweep that was under way: it may have read the stored versions before the connection listened again', async () => {
    const sweeps: (() => void)[] = [];
    const live = {
      sweep: () => new Promise<void>((done) => sweeps.push(done)),
      catchUp: async () => undefined,
      has: () => false,
      forget: () => undefined,
    };
    const freshness = new Freshness(live);
    // A sweep of the lost period reads the stored versions, then the connection listens again.
    const underWay = freshness.sweep();
    freshness.restored();
    expect(sweeps).toHaveLength(1);
    sweeps[0]();
    await underWay;
    await new Promise((r) => setImmediate(r));
    // A sweep of its own, begun after the connection listens: nothing stored meanwhile is missed.
    expect(sweeps).toHaveLength(2);
    sweeps[1]();
    await freshness.stop();
  });

  it('sweeps at once when none is under way', async () => {
    let swept = 0;
    const freshness = new Freshness({ sweep: async () => void swept++, catchUp: async () => undefined, has: () => false, forget: () => undefined });
    freshness.restored();
    await new Promise((r) => setImmediate(r));
    expect(swept).toBe(1);
    await freshness.stop();
  });
});

/**
 * An append is told once: if catching it up fails (the database away for a moment after a
 * failover, or the read answered by a server not yet as far), the held stream would stay short
 * of it until its next command, and every read of it here would miss the last moves.
 */
describe('freshness of a told append whose catching up failed', () => {
  it('tries again until it is caught up', async () => {
    const calls: [string, number | undefined][] = [];
    const live = {
      catchUp: async (id: string, version?: number) => {
        calls.push([id, version]);
        if (calls.length === 1) throw new Error('Connection terminated unexpectedly');
      },
      sweep: async () => undefined,
      has: () => true,
      forget: () => undefined,
    };
    const freshness = new Freshness(live);
    freshness.appended('g1', 7);
    await until(() => calls.length === 2);
    expect(calls).toEqual([
      ['g1', 7],
      ['g1', 7],
    ]);
    await freshness.stop();
  });

  it('sweeps again when the sweep after the listening connection came back failed', async () => {
    let sweeps = 0;
    const live = {
      sweep: async () => {
        if (++sweeps === 1) throw new Error('Connection terminated unexpectedly');
      },
      catchUp: async () => undefined,
      has: () => false,
      forget: () => undefined,
    };
    const freshness = new Freshness(live);
    freshness.restored();
    await until(() => sweeps === 2);
    await freshness.stop();
  });

  it('a held stream read short of the version it was told of fails its catching up (so that it is tried again)', async () => {
    type Held = StreamHead & { id: string };
    const head = (version: number): Held => ({ id: 'g1', version, lastHash: '', commands: new Map(), lastCommand: null });
    // The server read lags: it has version 4 while the told append is version 5.
    const source: StreamSource<Held, string> = {
      name: 'game',
      isId: () => true,
      idOf: (s) => s.id,
      isOver: () => false,
      load: async () => head(3),
      follow: async (held) => (held.version < 4 ? { state: head(4), batch: 'moved' } : null),
      moved: () => 'moved',
      versions: async () => new Map([['g1', 4]]),
    };
    const held = new HeldStreams(source, { running: 10, over: 10, readsStoredVersion: false });
    await held.get('g1');
    await expect(held.catchUp('g1', 5)).rejects.toThrow('short of the stored 5');
    expect((await held.get('g1')).version).toBe(4);
    await expect(held.catchUp('g1', 4)).resolves.toBeUndefined();
  });
});
