/**
 * One queue per key: what is run under a key waits for what was run under it before, in order;
 * different keys do not wait for each other. Within one process only: across processes the
 * store's compare-and-set decides.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = previous.then(() => new Promise<void>((r) => (release = r)));
    this.tails.set(key, mine);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.tails.get(key) === mine) this.tails.delete(key);
    }
  }
}
