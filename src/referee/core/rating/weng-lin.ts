import { exactExp, exactSqrt } from './exact-math.js';

/**
 * Weng and Lin's Bayesian rating for a game of many (R. C. Weng, C.-J. Lin, "A Bayesian
 * Approximation Method for Online Ranking", JMLR 12, 2011, Algorithm 4: the Plackett-Luce
 * model), as the openskill libraries compute it: teams (of one player, at a Chicken Foot table)
 * finish in places; ties share a place. In exact-math.ts's functions, the same on every engine.
 */

export interface SkillRating {
  mu: number;
  sigma: number;
}

export interface PlackettLuceOptions {
  /** The performance noise β (openskill: σ₀ / 2). */
  beta: number;
  /** The least a variance factor may shrink to (openskill's κ: 0.0001). */
  kappa: number;
}

/**
 * The ratings after one game: `teams[i]` finished in place `places[i]` (1 the best; equal places
 * tie). γ is openskill's default, √(σ²ᵢ) / c.
 */
export function plackettLuce(teams: readonly (readonly SkillRating[])[], places: readonly number[], options: PlackettLuceOptions): SkillRating[][] {
  const betaSq = options.beta * options.beta;
  const team = teams.map((players, i) => ({
    mu: players.reduce((sum, p) => sum + p.mu, 0),
    sigmaSq: players.reduce((sum, p) => sum + p.sigma * p.sigma, 0),
    place: places[i],
  }));
  const c = exactSqrt(team.reduce((sum, t) => sum + t.sigmaSq + betaSq, 0));
  const strength = team.map((t) => exactExp(t.mu / c));
  // C_q: the strengths of the teams placed at q's place or below it; A_q: the teams sharing q's place.
  const sumQ = team.map((q) => team.reduce((sum, t, s) => (t.place >= q.place ? sum + strength[s] : sum), 0));
  const ties = team.map((q) => team.filter((t) => t.place === q.place).length);
  return teams.map((players, i) => {
    const t = team[i];
    let omega = 0;
    let delta = 0;
    for (let q = 0; q < team.length; q++) {
      if (team[q].place > t.place) continue;
      const quotient = strength[i] / sumQ[q];
      omega += (i === q ? 1 - quotient : -quotient) / ties[q];
      delta += (quotient * (1 - quotient)) / ties[q];
    }
    const gamma = exactSqrt(t.sigmaSq) / c;
    const teamOmega = omega * (t.sigmaSq / c);
    const teamDelta = gamma * delta * (t.sigmaSq / (c * c));
    return players.map((p) => {
      const share = (p.sigma * p.sigma) / t.sigmaSq;
      const factor = 1 - share * teamDelta;
      return { mu: p.mu + share * teamOmega, sigma: p.sigma * exactSqrt(Math.max(factor, options.kappa)) };
    });
  });
}
