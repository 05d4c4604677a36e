import fc from 'fast-check';
import { durationWords } from '../../src/referee/core/text.js';

/** Durations in refusal messages read as days, hours, minutes and seconds, and say exactly the number they stand for. */
describe('durationWords', () => {
  it('reads as people say it', () => {
    expect(durationWords(950_400_000)).toBe('11 days');
    expect(durationWords(90_000)).toBe('1 minute 30 seconds');
    expect(durationWords(3_661_500)).toBe('1 hour 1 minute 1.5 seconds');
    expect(durationWords(1_000)).toBe('1 second');
    expect(durationWords(86_400_001)).toBe('1 day 0.001 seconds');
    expect(durationWords(950)).toBe('950 ms');
  });

  it('loses nothing: the words add up to the milliseconds', () => {
    const size: Record<string, number> = { day: 86_400_000, hour: 3_600_000, minute: 60_000, second: 1000, ms: 1 };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 * 86_400_000 }), (ms) => {
        const words = durationWords(ms).split(' ');
        let total = 0;
        for (let i = 0; i < words.length; i += 2) total += Number(words[i]) * size[words[i + 1] === 'ms' ? 'ms' : words[i + 1].replace(/s$/, '')];
        expect(Math.round(total)).toBe(ms);
      }),
    );
  });
});
