import { seededRandom } from '../../src/engines/kit/index.js';
import { ENGINES } from '../../src/games/engines.js';
import { Bot, gql } from './bot.js';
import { startService, type RunningService } from './service.js';

export interface CrashReport {
  /** What the first service process logged (graceful shutdown says 'stopped cleanly'). */
  log: string;
  acknowledged: number;
  missing: string[];
  games: number;
  unverified: string[];
  restartedIn: number;
}

const EVENTS = `query($id: ID!, $after: Int) { gameEvents(gameId: $id, afterSeq: $after, limit: 1000) { seq moveId } }`;
const VERIFY = `query($id: ID!) { verifyGame(gameId: $id) { ok summary } }`;

/**
 * Stops the service with `signal` (SIGKILL: a crash; SIGTERM: a graceful shutdown) while
 * `clients` bots are moving, restarts it on the same database, and checks that every move the
 * service acknowledged is stored at the version it was acknowledged with, and that every game
 * still verifies.
 */
export async function crashCheck(env: Record<string, string>, port: number, clients = 16, moveMs = 1500, signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL'): Promise<CrashReport> {
  const engine = ENGINES.find((e) => e.kind === 'backgammon')!;
  let service: RunningService = await startService(env, port);
  const acknowledged: { gameId: string; moveId: string; version: number }[] = [];
  let stop = false;
  const playing = Array.from({ length: clients }, async (_, c) => {
    const bot = new Bot(service.url, engine, { autoRoll: true }, seededRandom(c + 1), `crash-${c}-${Date.now()}`, ['resign', 'double']);
    await bot.newGame();
    while (!stop) {
      if (bot.finished()) {
        await bot.newGame();
        continue;
      }
      const r = await bot.move();
      if (r.accepted) acknowledged.push({ gameId: bot.gameId, moveId: r.moveId, version: r.version });
    }
  });
  const results = Promise.allSettled(playing);
  await new Promise((r) => setTimeout(r, moveMs));
  service.process.kill(signal);
  await service.exited;
  const log = service.log();
  stop = true;
  await results; // requests in flight at the kill fail: they were never acknowledged
  const restarted = performance.now();
  service = await startService(env, port);
  const restartedIn = performance.now() - restarted;
  try {
    const missing: string[] = [];
    const unverified: string[] = [];
    const byGame = new Map<string, { moveId: string; version: number }[]>();
    for (const a of acknowledged) byGame.set(a.gameId, [...(byGame.get(a.gameId) ?? []), a]);
    for (const [gameId, moves] of byGame) {
      const events = (await gql(service.url, EVENTS, { id: gameId, after: 0 })).data.gameEvents as { seq: number; moveId: string | null }[];
      const stored = new Map(events.filter((e) => e.moveId).map((e) => [e.moveId!, e.seq]));
      const last = events.at(-1)?.seq ?? 0;
      for (const m of moves) {
        const seq = stored.get(m.moveId);
        if (seq === undefined || seq > m.version || last < m.version) missing.push(`${gameId}/${m.moveId}`);
      }
      const verdict = (await gql(service.url, VERIFY, { id: gameId })).data.verifyGame;
      if (!verdict.ok) unverified.push(`${gameId}: ${verdict.summary}`);
    }
    return { log, acknowledged: acknowledged.length, missing, games: byGame.size, unverified, restartedIn };
  } finally {
    service.process.kill('SIGTERM');
    await service.exited;
  }
}
