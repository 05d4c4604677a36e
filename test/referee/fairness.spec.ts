import { createHmac, randomBytes } from 'node:crypto';
import { clientSeedMix, FairSource, seedCommitment } from '../../src/referee/core/fairness.js';

const newServerSeed = () => randomBytes(32).toString('hex');

/** Pearson's chi-square statistic of observed counts against expected weights. */
function chiSquare(observed: number[], weights: number[]): number {
  const total = observed.reduce((a, b) => a + b, 0);
  const sum = weights.reduce((a, b) => a + b, 0);
  return observed.reduce((chi, o, i) => {
    const e = (total * weights[i]) / sum;
    return chi + ((o - e) * (o - e)) / e;
  }, 0);
}

describe('the fair random source', () => {
  it('is a pure function of seed, game and counter that anyone can recompute', () => {
    const seed = newServerSeed();
    const mix = clientSeedMix(['alice', null]);
    const a = new FairSource(seed, 'g1', mix, 0).draw([6, 6, 6, 6]);
    const b = new FairSource(seed, 'g1', mix, 0).draw([6, 6, 6, 6]);
    expect(a).toEqual(b);
    // By hand, as docs/fairness.md describes it: first 4 bytes of each HMAC, big-endian, rejection below 2^32 - 2^32 mod n.
    const byHand: number[] = [];
    for (let k = a.counter[0]; byHand.length < 4; k++) {
      const x = createHmac('sha256', seed).update(`g1:${mix}:${k}`).digest().readUInt32BE(0);
      if (x < 2 ** 32 - (2 ** 32 % 6)) byHand.push(x % 6);
    }
    expect(a.values).toEqual(byHand);
    // Another game's dice differ: compared over 32 draws, as 4 could agree by chance (1 in 1,296).
    const many = (game: string) => new FairSource(seed, game, mix, 0).draw(Array(32).fill(6)).values;
    expect(many('g2')).not.toEqual(many('g1'));
    expect(seedCommitment(seed)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives client seeds a say: another seed gives other dice', () => {
    const seed = newServerSeed();
    const one = new FairSource(seed, 'g', clientSeedMix(['x', 'y']), 0).draw(Array(20).fill(6)).values;
    const two = new FairSource(seed, 'g', clientSeedMix(['x', 'z']), 0).draw(Array(20).fill(6)).values;
    expect(one).not.toEqual(two);
  });

  it('casts five two-sided sticks in the proportions 1:5:10:10:5:1', () => {
    const source = new FairSource(newServerSeed(), 'sticks', clientSeedMix([null, null]), 0);
    const counts = [0, 0, 0, 0, 0, 0];
    for (let i = 0; i < 32_000; i++) counts[source.draw([2, 2, 2, 2, 2]).values.reduce((a, b) => a + b, 0)]++;
    // 5 degrees of freedom: chi-square above 20.5 has probability 0.001 for a fair source.
    expect(chiSquare(counts, [1, 5, 10, 10, 5, 1])).toBeLessThan(20.5);
  });

  it('has no modulo bias for ranges that do not divide 2^32', () => {
    const source = new FairSource(newServerSeed(), 'bias', clientSeedMix([]), 0);
    const counts = new Array(7).fill(0);
    for (let i = 0; i < 70_000; i++) counts[source.uniform(7)]++;
    expect(chiSquare(counts, new Array(7).fill(1))).toBeLessThan(22.5); // 6 d.o.f., p = 0.001
    expect(() => source.uniform(0)).toThrow(RangeError);
  });
});
