import { exactExp, exactLn, exactSqrt } from '../../src/referee/core/rating/exact-math.js';
import { glicko2 } from '../../src/referee/core/rating/glicko2.js';
import { plackettLuce } from '../../src/referee/core/rating/weng-lin.js';

describe('exact math', () => {
  it('agrees with the engine’s own functions to within a few units in the last place', () => {
    for (const x of [-30, -5.5, -1, -1e-9, 0, 1e-12, 0.3, 1, 2.5, 7, 40, 300]) {
      const e = Math.exp(x);
      expect(Math.abs(exactExp(x) - e)).toBeLessThanOrEqual(4 * Number.EPSILON * e);
    }
    for (const x of [1e-300, 1e-9, 0.0036, 0.5, 1, 1.5, 2, 10, 12345.678, 1e200]) {
      expect(Math.abs(exactLn(x) - Math.log(x))).toBeLessThanOrEqual(4 * Number.EPSILON * Math.max(1, Math.abs(Math.log(x))));
      expect(Math.abs(exactSqrt(x) - Math.sqrt(x))).toBeLessThanOrEqual(2 * Number.EPSILON * Math.sqrt(x));
    }
    expect(exactSqrt(4)).toBe(2);
    expect(exactLn(1)).toBe(0);
    expect(exactExp(0)).toBe(1);
  });
});

describe('Glicko-2', () => {
  it('reproduces Glickman’s worked example (τ = 0.5)', () => {
    const after = glicko2(
      { rating: 1500, rd: 200, volatility: 0.06 },
      [
        { opponent: { rating: 1400, rd: 30 }, score: 1 },
        { opponent: { rating: 1550, rd: 100 }, score: 0 },
        { opponent: { rating: 1700, rd: 300 }, score: 0 },
      ],
      0.5,
    );
    // The paper rounds its intermediate values: unrounded, the rating is 1464.0507 (≈ 1464.06).
    expect(after.rating).toBeCloseTo(1464.06, 1);
    expect(after.rd).toBeCloseTo(151.52, 2);
    expect(Math.abs(after.volatility - 0.05999)).toBeLessThan(0.00001);
  });

  it('grows the RD of a period without games by the volatility', () => {
    const after = glicko2({ rating: 1500, rd: 200, volatility: 0.06 }, [], 0.5);
    expect(after.rating).toBe(1500);
    expect(after.rd).toBeGreaterThan(200);
  });
});

describe('Weng-Lin (Plackett-Luce)', () => {
  it('reproduces openskill’s published example: a team of a1, a2 beats b1, b2', () => {
    const options = { beta: 25 / 6, kappa: 0.0001 };
    const a1 = { mu: 25, sigma: 25 / 3 };
    const a2 = { mu: 32.444, sigma: 5.123 };
    const b1 = { mu: 43.381, sigma: 2.421 };
    const b2 = { mu: 25.188, sigma: 6.211 };
    const [[x1, x2], [y1, y2]] = plackettLuce(
      [
        [a1, a2],
        [b1, b2],
      ],
      [1, 2],
      options,
    );
    // The README's numbers: x1 = 28.669648436582808 / 8.071520788025197, and so on.
    const close = (r: { mu: number; sigma: number }, mu: number, sigma: number) => {
      expect(r.mu).toBeCloseTo(mu, 10);
      expect(r.sigma).toBeCloseTo(sigma, 10);
    };
    close(x1, 28.669648436582808, 8.071520788025197);
    close(x2, 33.83086971107981, 5.062772998705765);
    close(y1, 43.071274808241974, 2.4166900452721256);
    close(y2, 23.149503312339064, 6.1378606973362135);
  });

  it('gives players who tie the same change from the same ratings', () => {
    const r = { mu: 1500, sigma: 350 };
    const [[w], [t1], [t2], [l]] = plackettLuce([[r], [r], [r], [r]], [1, 2, 2, 4], { beta: 175, kappa: 0.0001 });
    expect(t1).toEqual(t2);
    expect(w.mu).toBeGreaterThan(t1.mu);
    expect(t1.mu).toBeGreaterThan(l.mu);
    expect(w.sigma).toBeLessThan(350);
  });
});
