import { Freshness } from '../../src/referee/application/freshness.js';

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
