import { exactExp, exactLn, exactSqrt } from './exact-math.js';

/**
 * Glicko-2 (Mark E. Glickman, "Example of the Glicko-2 system", 2022), step by step as the paper
 * numbers them, in exact-math.ts's functions (the same double on every engine). One call rates
 * one player over one rating period against the opponents given.
 */

/** A player's rating on the Glicko scale (rating 1500, RD 350 for a new player). */
export interface GlickoRating {
  rating: number;
  rd: number;
  volatility: number;
}

/** One game of the period: the opponent's rating before it and the player's score (1 win, ½ draw, 0 loss). */
export interface GlickoGame {
  opponent: Pick<GlickoRating, 'rating' | 'rd'>;
  score: number;
}

/** The conversion factor between the Glicko and Glicko-2 scales (step 2). */
const SCALE = 173.7178;
/** The convergence tolerance of step 5 (the paper's ε). */
const EPSILON = 0.000001;

const g = (phi: number): number => 1 / exactSqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));
const expected = (mu: number, muJ: number, phiJ: number): number => 1 / (1 + exactExp(-g(phiJ) * (mu - muJ)));

/** The new volatility (step 5, the Illinois algorithm). */
function newVolatility(sigma: number, phi: number, v: number, delta: number, tau: number): number {
  const a = exactLn(sigma * sigma);
  const f = (x: number): number => {
    const ex = exactExp(x);
    const d = phi * phi + v + ex;
    return (ex * (delta * delta - phi * phi - v - ex)) / (2 * d * d) - (x - a) / (tau * tau);
  };
  let A = a;
  let B: number;
  if (delta * delta > phi * phi + v) B = exactLn(delta * delta - phi * phi - v);
  else {
    let k = 1;
    while (f(a - k * tau) < 0) k++;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  // At most a few dozen rounds in practice; the bound keeps a pathological input finite.
  for (let round = 0; Math.abs(B - A) > EPSILON && round < 200; round++) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else fA /= 2;
    B = C;
    fB = fC;
  }
  return exactExp(A / 2);
}

/**
 * The player's rating after the period (steps 2-8). With no game the RD grows by one period's
 * volatility (step 6 alone), as the paper says of a player who did not compete.
 */
export function glicko2(player: GlickoRating, games: readonly GlickoGame[], tau: number): GlickoRating {
  const mu = (player.rating - 1500) / SCALE;
  const phi = player.rd / SCALE;
  const sigma = player.volatility;
  if (games.length === 0) return { rating: player.rating, rd: exactSqrt(phi * phi + sigma * sigma) * SCALE, volatility: sigma };
  let vInverse = 0;
  let sum = 0;
  for (const game of games) {
    const muJ = (game.opponent.rating - 1500) / SCALE;
    const phiJ = game.opponent.rd / SCALE;
    const e = expected(mu, muJ, phiJ);
    const gJ = g(phiJ);
    vInverse += gJ * gJ * e * (1 - e);
    sum += gJ * (game.score - e);
  }
  const v = 1 / vInverse;
  const delta = v * sum;
  const sigmaNew = newVolatility(sigma, phi, v, delta, tau);
  const phiStar = exactSqrt(phi * phi + sigmaNew * sigmaNew);
  const phiNew = 1 / exactSqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * sum;
  return { rating: SCALE * muNew + 1500, rd: SCALE * phiNew, volatility: sigmaNew };
}

/**
 * The RD a player's rating has after `periods` rating periods without a game (Glickman's step 6
 * repeated: φ² grows by σ² a period), capped at `max`. lichess counts a period as a fraction of
 * a day; docs/ratings.md says which.
 */
export function inflatedRd(rd: number, volatility: number, periods: number, max: number): number {
  if (periods <= 0) return rd;
  const phi = rd / SCALE;
  const grown = exactSqrt(phi * phi + periods * volatility * volatility) * SCALE;
  return Math.min(grown, max);
}
