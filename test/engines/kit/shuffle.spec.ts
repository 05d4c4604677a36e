import fc from 'fast-check';
import { applyShuffle, drawsForOrder, shuffleRanges, checkValues } from '../../../src/engines/kit/index.js';

describe('shuffles as chance draws', () => {
  it('a given order converts to draws that reproduce it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer(), { minLength: 1, maxLength: 40 }).chain((xs) => fc.shuffledSubarray([...new Set(xs)], { minLength: new Set(xs).size }).map((perm) => [[...new Set(xs)], perm] as const)),
        ([items, target]) => {
          const draws = drawsForOrder(items, target);
          expect(checkValues(shuffleRanges(items.length), draws)).toBeNull();
          expect(applyShuffle(items, draws)).toEqual(target);
        },
      ),
    );
  });

  it('rejects values outside their ranges', () => {
    expect(checkValues([6, 6], [5, 6])).toMatch(/outside/);
    expect(checkValues([6, 6], [5])).toMatch(/expected 2 values/);
  });
});
