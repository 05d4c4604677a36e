import { chainEvents, chainInSlices, type DraftEvent, eventHash, GENESIS_HASH, SLICE } from '../../src/referee/core/stream.js';

/** A long stream (an imported record's) is chained a slice at a time, to the same events as at once. */
const drafts: DraftEvent[] = Array.from({ length: 1000 }, (_, i) => ({
  type: i === 0 ? 'GameCreated' : 'ActionPlayed',
  actor: i === 0 ? null : i % 2,
  moveId: i % 3 === 0 ? `m-${i}` : null,
  bodyHash: null,
  payload: { i, dice: [1 + (i % 6), 1 + ((i * 7) % 6)] },
  createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
}));

describe('chaining a stream in slices', () => {
  it('pauses after every slice of events and gives the same chain as chaining at once', () => {
    const slices = chainInSlices('long-game', { version: 0, lastHash: GENESIS_HASH }, drafts);
    let pauses = 0;
    let step = slices.next();
    while (!step.done) {
      pauses++;
      step = slices.next();
    }
    expect(pauses).toBe(Math.ceil(drafts.length / SLICE) - 1);
    expect(step.value).toEqual(chainEvents('long-game', { version: 0, lastHash: GENESIS_HASH }, drafts));
  });

  it("chains after a head: seq from its version, each prevHash the hash before it, each hash the event's own", () => {
    const head = { version: 7, lastHash: 'a'.repeat(64) };
    const slices = chainInSlices('long-game', head, drafts);
    let step = slices.next();
    while (!step.done) step = slices.next();
    let prev = head.lastHash;
    step.value.forEach((e, i) => {
      expect(e.seq).toBe(head.version + 1 + i);
      expect(e.prevHash).toBe(prev);
      expect(e.hash).toBe(eventHash('long-game', e));
      prev = e.hash;
    });
  });
});
