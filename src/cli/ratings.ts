/**
 * `npm run ratings:recompute`: recomputes every rating from the finished games' stored events (their
 * bundles) and compares each update with the stored one, byte for byte (docs/ratings.md,
 * "Recomputable"). Reads the database the service is configured with (DATABASE_URL, or PGlite in
 * DATA_DIR: stop the service first, PGlite has one user). Prints what it checked; exits 1 on any
 * difference, 2 on a configuration error.
 */
import { RatingService } from '../referee/index.js';
import { runWithService } from './with-service.js';

runWithService(async (app) => {
  const started = performance.now();
  const { pools, games, mismatches } = await app.get(RatingService).recomputeAll();
  const seconds = (performance.now() - started) / 1000;
  for (const m of mismatches) process.stdout.write(`MISMATCH ${m.poolId} event ${m.seq} (game ${m.gameId}): ${m.reason}\n`);
  process.stdout.write(`${pools} pools, ${games} rated games recomputed in ${seconds.toFixed(2)} s: ${mismatches.length === 0 ? 'every stored rating agrees' : `${mismatches.length} differ`}\n`);
  return mismatches.length === 0 ? 0 : 1;
});
