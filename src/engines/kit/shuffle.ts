/**
 * Fisher-Yates shuffles expressed as chance draws, so a shuffle is an ordinary ChanceRequest
 * and a given order (an organizer's deal, an imported record) converts back to draws.
 */

/** Ranges for shuffling n items: [n, n-1, ..., 2]. */
export function shuffleRanges(n: number): number[] {
  const ranges: number[] = [];
  for (let k = n; k >= 2; k--) ranges.push(k);
  return ranges;
}

/**
 * Applies draws to items: for i from the end down to 1, swap items[i] with items[draw].
 * draws[j] is in [0, n - j).
 */
export function applyShuffle<T>(items: readonly T[], draws: readonly number[]): T[] {
  const out = items.slice();
  for (let j = 0, i = out.length - 1; i >= 1; j++, i--) {
    const k = draws[j];
    [out[i], out[k]] = [out[k], out[i]];
  }
  return out;
}

/** The draws that turn `items` into `target` (a permutation of items, compared by key). */
export function drawsForOrder<T>(items: readonly T[], target: readonly T[], key: (t: T) => string = String): number[] {
  const work = items.slice();
  const draws: number[] = [];
  for (let i = work.length - 1; i >= 1; i--) {
    const want = key(target[i]);
    const k = work.findIndex((t, idx) => idx <= i && key(t) === want);
    if (k < 0) throw new Error(`drawsForOrder: ${want} is not among the remaining items`);
    draws.push(k);
    [work[i], work[k]] = [work[k], work[i]];
  }
  return draws;
}
