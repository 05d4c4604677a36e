import { seededRandom } from '../src/engines/kit/index.js';
import { ENGINES } from '../src/games/index.js';
import { Bot, gql } from './bot.js';
import { startService, type RunningService } from './service.js';

export interface CrashReport {
  /** What the first service process logged (graceful shutdown says 'stopped cleanly'). */
  log: string;
  acknowledged: number;
  /** Requests the bots had in flight when the signal was sent (the stop came mid-play). */
  inFlightAtStop: number;
  missing: string[];
  games: number;
  unverified: string[];
  restartedIn: number;
}

const EVENTS = `query($id: ID!, $after: String) { gameEvents(gameId: $id, after: $after, first: 1000) { nodes { seq moveId } } }`;
const VERIFY = `query($id: ID!) { verifyGame(gameId: $id) { ok summary } }`;

/**
 * When to stop the service: a number is a time window in milliseconds (for the benchmark, which
 * measures how much a machine acknowledges); `{ acknowledged }` stops it as soon as that many
 * moves have been acknowledged, however long that takes, so what is checked does not depend on
 * the machine's speed. `timeoutMs` is only a safety net against a service that stops answering.
 */
export type StopAt = number | { acknowledged: number; timeoutMs?: number };

/**
 * Stops the service with `signal` (SIGKILL: a crash; SIGTERM: a graceful shutdown) while
 * `clients` bots are moving, restarts it on the same database, and checks that every move the
 * service acknowledged is stored at the version it was acknowledged with, and that every game
 * still verifies.
 */
export async function crashCheck(env: Record<string, string>, port: number, clients = 16, stopAt: StopAt = 1500, signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL'): Promise<CrashReport> {
  const engine = ENGINES.find((e) => e.kind === 'backgammon')!;
  let service: RunningService = await startService(env, port);
  const acknowledged: { gameId: string; moveId: string; version: number }[] = [];
  const target = typeof stopAt === 'number' ? Infinity : stopAt.acknowledged;
  let reached!: () => void;
  const enough = new Promise<void>((r) => (reached = r));
  let inFlight = 0;
  let stop = false;
  const playing = Array.from({ length: clients }, async (_, c) => {
    const bot = new Bot(service.url, engine, { autoRoll: true }, seededRandom(c + 1), `crash-${c}-${Date.now()}`, ['resign', 'double']);
    const call = async <T>(request: () => Promise<T>): Promise<T> => {
      inFlight++;
      try {
        return await request();
      } finally {
        inFlight--;
      }
    };
    await call(() => bot.newGame());
    while (!stop) {
      if (bot.finished()) {
        await call(() => bot.newGame());
        continue;
      }
      const r = await call(() => bot.move());
      if (r.accepted) {
        acknowledged.push({ gameId: bot.gameId, moveId: r.moveId, version: r.version });
        if (acknowledged.length >= target) reached();
      }
    }
  });
  const results = Promise.allSettled(playing);
  let inFlightAtStop: number;
  try {
    if (typeof stopAt === 'number') await new Promise((r) => setTimeout(r, stopAt));
    else await untilAcknowledged(enough, results, acknowledged, stopAt);
    inFlightAtStop = inFlight;
  } catch (err) {
    stop = true;
    service.process.kill('SIGKILL');
    await service.exited;
    await results;
    throw err;
  }
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
      const events = (await gql(service.url, EVENTS, { id: gameId, after: '0' })).data.gameEvents.nodes as { seq: number; moveId: string | null }[];
      const stored = new Map(events.filter((e) => e.moveId).map((e) => [e.moveId!, e.seq]));
      const last = events.at(-1)?.seq ?? 0;
      for (const m of moves) {
        const seq = stored.get(m.moveId);
        if (seq === undefined || seq > m.version || last < m.version) missing.push(`${gameId}/${m.moveId}`);
      }
      const verdict = (await gql(service.url, VERIFY, { id: gameId })).data.verifyGame;
      if (!verdict.ok) unverified.push(`${gameId}: ${verdict.summary}`);
    }
    return { log, acknowledged: acknowledged.length, inFlightAtStop, missing, games: byGame.size, unverified, restartedIn };
  } finally {
    service.process.kill('SIGTERM');
    await service.exited;
  }
}

/** Waits for `enough`; fails if every bot stopped first (a bot's error is named) or the safety net runs out. */
async function untilAcknowledged(enough: Promise<void>, results: Promise<PromiseSettledResult<void>[]>, acknowledged: unknown[], stopAt: { acknowledged: number; timeoutMs?: number }): Promise<void> {
  const timeoutMs = stopAt.timeoutMs ?? 300_000;
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([enough.then(() => 'enough' as const), results.then((settled) => settled), new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), timeoutMs)))]);
  clearTimeout(timer);
  if (outcome === 'enough') return;
  if (outcome === 'timeout') throw new Error(`only ${acknowledged.length} of ${stopAt.acknowledged} moves were acknowledged within the ${timeoutMs / 1000} s safety net`);
  const failure = outcome.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  throw new Error(`every bot stopped after ${acknowledged.length} of ${stopAt.acknowledged} acknowledged moves${failure ? `: ${String(failure.reason)}` : ''}`);
}
