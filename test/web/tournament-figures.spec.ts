import fc from 'fast-check';
import { decimal, legend, tieBreakName } from '../../web/src/pages/tournament-figures.js';

/** A tournament's figures as a player reads them (issue 28, item 6). */
describe("a tournament page's figures", () => {
  it('shows an exact value as a decimal of at most two places, never a fraction', () => {
    expect(decimal('52/3')).toBe('17.33');
    expect(decimal('7/2')).toBe('3.5');
    expect(decimal('-1/3')).toBe('-0.33');
    expect(decimal('12')).toBe('12');
    expect(decimal(null)).toBe('–');
    fc.assert(
      fc.property(fc.integer({ min: -10_000, max: 10_000 }), fc.integer({ min: 1, max: 1000 }), (n, d) => {
        expect(Math.abs(Number(decimal(`${n}/${d}`)) - n / d)).toBeLessThanOrEqual(0.005 + 1e-9);
        expect(decimal(`${n}/${d}`)).not.toContain('/');
      }),
    );
  });

  it('names a tie-break with its meaning, and spells out only the names it knows', () => {
    expect(tieBreakName('SB').text).toBe('<abbr title="Sonneborn-Berger: the scores of the opponents you beat, plus half those you drew with">SB</abbr>');
    expect(tieBreakName('XYZ').text).toBe('XYZ');
    expect(legend(['GP', 'XYZ']).text).toContain('<dt>GP</dt><dd>Game points: the average game points per game played');
    expect(legend([]).text).toBe('');
  });
});
