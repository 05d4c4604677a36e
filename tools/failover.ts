import { seededRandom } from '../src/engines/kit/index.js';
import { ENGINES } from '../src/games/index.js';
import { Bot, gql } from './bot.js';
import { type Acknowledged, type Audit, audit, gameEvents } from './failover-audit.js';
import type { HaCluster } from './ha-cluster.js';

export type Fault = 'kill' | 'switchover';

export interface FailoverPlan {
  faults: Fault[];
  /** Bots; each sends its moves through the instances in turn. */
  bots: number;
  /** Moves acknowledged between two faults (and before the first): the faults come mid-play, wherever that is. */
  movesBetween: number;
  /** A safety net against a cluster that never recovers, not a speed requirement. */
  timeoutMs?: number;
  /** Called on each new game of a bot (a webhook registered on it), again until it succeeds. */
  onNewGame?: (bot: Bot) => Promise<void>;
}

export interface FailoverReport extends Audit {
  acknowledged: number;
  /**
   * Per fault, milliseconds from the fault to the first move accepted among those sent after the
   * last refusal that followed it (the backends of a killed server may still finish a few moves
   * for a moment: the outage ends at the last refusal, not the first); `at`, when it came (Date.now()).
   */
  recoveries: { fault: Fault; ms: number; at: number }[];
  /** Answers other than MoveAccepted, by code (retries of the same move included). */
  refusals: Record<string, number>;
  /**
   * Deadlines that fell during the faults: games nobody plays, on a 10 s Fischer clock, created
   * just before each fault. Each must time out exactly once (`applied`), none twice.
   */
  deadlines: { expected: number; applied: number; twice: number };
  /** What /readyz answered, polled on every instance during the run: `200`, `503 <reason>` or `no answer (<why>)`. */
  readyz: Record<string, number>;
}

const CREATE_IDLE = `mutation($input: CreateGameInput!) { createGame(input: $input) { ... on GameCreated { game { id } } ... on Rejection { code message } } }`;
/** Idle games on a clock created before each fault: their deadlines fall during it (Fischer's shortest base, 10 s). */
const IDLE_GAMES = 3;

/**
 * Jepsen-style check of failover: bots play backgammon through the `instances` while `cluster`
 * suffers `plan.faults` one after the other (each once the cluster is healthy again and
 * `movesBetween` more moves were acknowledged); a refused move is sent again with the same id
 * until it is answered. Then every acknowledged move must be stored once at its version (read
 * from the database's rows: else `lost`), every instance must show it (else `staleReads`), and
 * every game must verify.
 */
export async function failoverCheck(cluster: HaCluster, instances: string[], plan: FailoverPlan): Promise<FailoverReport> {
  const engine = ENGINES.find((e) => e.kind === 'backgammon')!;
  const acknowledged: Acknowledged[] = [];
  const refusals: Record<string, number> = {};
  const readyz: Record<string, number> = {};
  const count = (into: Record<string, number>, key: string) => (into[key] = (into[key] ?? 0) + 1);
  /** When each fault came, when each refusal came, when each accepted move was sent and answered. */
  const faultsAt: number[] = [];
  const idle: string[] = [];
  const refusedAt: number[] = [];
  const accepted: { sentAt: number; at: number }[] = [];
  let stop = false;
  const deadline = Date.now() + (plan.timeoutMs ?? 600_000);
  const failIfLate = () => {
    if (Date.now() > deadline) throw new Error(`the failover check ran out of its ${(plan.timeoutMs ?? 600_000) / 1000} s safety net after ${acknowledged.length} acknowledged moves`);
  };

  const playing = Array.from({ length: plan.bots }, async (_, b) => {
    const bot = new Bot(instances[b % instances.length], engine, { autoRoll: true }, seededRandom(b + 1), `ha-${b}-${Date.now()}`, ['resign', 'double']);
    const untilStarted = async (step: () => Promise<void>) => {
      for (;;) {
        try {
          return await step();
        } catch (err) {
          if (stop) return;
          count(refusals, `start: ${(err as Error).message.slice(0, 60)}`);
          await new Promise((r) => setTimeout(r, 250));
        }
      }
    };
    const newGame = async () => {
      await untilStarted(() => bot.newGame());
      if (plan.onNewGame) await untilStarted(() => plan.onNewGame!(bot));
    };
    await newGame();
    while (!stop) {
      if (bot.finished()) {
        await newGame();
        continue;
      }
      // Each move through the next instance: each must catch up with what the other stored (NOTIFY, or the conflict).
      bot.url = instances[(b + acknowledged.length) % instances.length];
      const sentAt = Date.now();
      const r = await bot.move();
      if (r.accepted) {
        acknowledged.push({ gameId: bot.gameId, moveId: r.moveId, version: r.version });
        accepted.push({ sentAt, at: Date.now() });
      } else {
        refusedAt.push(Date.now());
        count(refusals, r.code ?? 'NO_CODE');
        // As a client told to come back later (Retry-After) would.
        if (r.code === 'STORAGE_UNAVAILABLE' || r.code?.startsWith('NO_ANSWER')) await new Promise((res) => setTimeout(res, 200));
      }
    }
  });
  const results = Promise.allSettled(playing);

  const polling = (async () => {
    while (!stop) {
      await Promise.all(
        instances.map(async (url) => {
          try {
            const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(3000) });
            const body = (await res.json()) as { reason?: string };
            count(readyz, res.status === 200 ? '200' : `${res.status} ${body.reason ?? ''}`.trim());
          } catch (err) {
            // Which silence: none within the 3 s (the instance, or this process, too busy) or a connection cut (and by whom).
            const e = err as Error & { cause?: { code?: string } };
            count(readyz, `no answer (${e.name === 'TimeoutError' ? 'none in 3 s' : (e.cause?.code ?? e.message.slice(0, 40))})`);
          }
        }),
      );
      await new Promise((r) => setTimeout(r, 250));
    }
  })();

  const until = async (done: () => boolean | Promise<boolean>) => {
    while (!(await done())) {
      failIfLate();
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const acknowledgedMore = (n: number) => {
    const target = acknowledged.length + n;
    return until(() => acknowledged.length >= target);
  };
  try {
    for (const kind of plan.faults) {
      await cluster.waitHealthy();
      await acknowledgedMore(plan.movesBetween);
      for (let g = 0; g < IDLE_GAMES; g++) idle.push(await createIdle(instances[g % instances.length]));
      const at = Date.now();
      faultsAt.push(at);
      if (kind === 'kill') {
        const killed = await cluster.killPrimary();
        // The killed node comes back (as a standby) once another leads and moves are accepted again.
        await until(async () => accepted.some((a) => a.sentAt > at + 1000) && ![null, killed].includes(await cluster.leader()));
        await cluster.start(killed);
      } else {
        await cluster.switchover();
      }
    }
    await acknowledgedMore(plan.movesBetween);
    // Every idle game's deadline has passed by now or soon: wait until each is over (or the safety net).
    await until(async () => (await Promise.all(idle.map((id) => gameEvents(instances[0], id)))).every((events) => events.some((e) => e.type === 'GameEnded')));
  } finally {
    stop = true;
    await results;
    await polling;
  }
  const failed = (await results).find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  const recoveries = plan.faults.map((fault, i) => {
    const [from, to] = [faultsAt[i], faultsAt[i + 1] ?? Infinity];
    const lastRefusal = Math.max(from, ...refusedAt.filter((t) => t >= from && t < to));
    const first = Math.min(...accepted.filter((a) => a.sentAt >= lastRefusal).map((a) => a.at));
    return { fault, ms: first - from, at: from };
  });
  const timedOut = await Promise.all(idle.map(async (id) => (await gameEvents(instances[0], id)).filter((e) => e.type === 'TimedOut').length));
  const deadlines = { expected: idle.length, applied: timedOut.filter((n) => n === 1).length, twice: timedOut.filter((n) => n > 1).length };
  return { ...(await audit(instances, cluster.databaseUrl, acknowledged)), acknowledged: acknowledged.length, recoveries, refusals, readyz, deadlines };
}

/** A backgammon game with both seats taken that nobody plays, on a 10 s Fischer clock. */
async function createIdle(url: string): Promise<string> {
  const input = { kind: 'backgammon', ruleset: { autoRoll: true }, timeControl: { kind: 'FISCHER', baseSeconds: 10 } };
  const created = (await gql(url, CREATE_IDLE, { input })).data?.createGame;
  if (!created?.game) throw new Error(`creating a game on a clock failed: ${JSON.stringify(created)}`);
  return created.game.id;
}
