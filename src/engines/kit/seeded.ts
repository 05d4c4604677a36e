/**
 * A small deterministic generator (mulberry32) for tests, benchmarks and simulations. It is not
 * the referee's fair source (that one lives in src/referee/fairness); it only lets pure code
 * play random games reproducibly from a seed.
 */
export function seededRandom(seed: number): (n: number) => number {
  let a = seed >>> 0;
  return (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const u = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return Math.floor(u * n);
  };
}
