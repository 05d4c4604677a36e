/**
 * Failover under load, by hand (not in CI): `npm run bench -- bench/failover.js [--bots 12]
 * [--kills 5] [--switchovers 2] [--moves 400] [--port-base 15400] [--nodes 2|3] [--strict]`.
 *
 * Starts a local HA cluster (scripts/ha/up: etcd, two (--nodes 3: three) PostgreSQL nodes under
 * Patroni with synchronous replication, strict with --strict, HAProxy routing to the leader), two
 * service processes on it, and bots that send each move through the instances in turn. Between
 * every `--moves` acknowledged moves, once the cluster has a leader and a synchronous standby
 * again, it kills the primary (kill -9 of its Patroni and its PostgreSQL, by PID; the node is
 * started again once another leads) or switches over with patronictl. Printed: moves
 * acknowledged, found afterwards in the stored rows (read from the database), lost and stored
 * twice (both must be 0), stale reads (stored, but not shown by an instance once settled: must be
 * 0), games that fail verification, the time from each fault to the first move accepted after its
 * last refusal (p50, max), refusals by code, and what /readyz answered meanwhile; the instances'
 * logs go to failover-instance-N.log. Every bot's game has a webhook registered (YOUR_TURN,
 * GAME_OVER) at a receiver of the bench's: once the outbox has nothing left to deliver, the
 * messages it holds (expected) are compared with the webhook-ids received (delivered; lost must
 * be 0; duplicates are allowed, at-least-once, and counted). Meanwhile a Swiss with autoPair
 * (`--players 6 --rounds 3`) is played by bots of its own: after round 1 the service records the
 * results and pairs each round by itself; it must finish, with every game verifying, whatever
 * faults fell while it ran.
 * Exits 1 if anything acknowledged was lost, doubled or read stale, a webhook message lost, or the
 * tournament did not finish.
 */
import { writeFileSync } from 'node:fs';
import { failoverCheck, type Fault } from '../tools/failover.js';
import { tournamentThroughFaults } from '../tools/failover-tournament.js';
import { WebhookTally } from '../tools/failover-webhooks.js';
import { HaCluster } from '../tools/ha-cluster.js';
import { startService, type RunningService } from '../tools/service.js';
import { freePort } from '../test/support/net.js';
import { benchArgs } from './lib/args.js';

const { flag, args } = benchArgs();
const kills = Number(flag('kills', '5'));
const switchovers = Number(flag('switchovers', '2'));
// A switchover after every second kill: kill, kill, switchover, kill, kill, switchover, kill.
const faults: Fault[] = Array.from({ length: kills }, () => 'kill');
for (let s = 0; s < switchovers; s++) faults.splice(Math.min(faults.length, 3 * s + 2), 0, 'switchover');

const count = (log: string, level: string) => log.split('\n').filter((l) => l.includes(`"level":"${level}"`)).length;
const started = performance.now();
const nodes = flag('nodes', '2') === '3' ? 3 : 2;
const strict = args.includes('--strict');
// Strict with two nodes, no move is accepted after a kill until the killed node is back, which the check waits for before starting it.
if (strict && nodes === 2) throw new Error('--strict needs --nodes 3 here (two strict nodes write nothing until the killed one is back)');
const cluster = await HaCluster.up(Number(flag('port-base', '15400')), { nodes, strict });
const tally = await WebhookTally.start();
const services: RunningService[] = [];
try {
  for (let i = 0; i < 2; i++) services.push(await startService({ DATABASE_URL: cluster.databaseUrl, ...tally.serviceEnv() }, await freePort()));
  process.stderr.write(`cluster and 2 instances up in ${((performance.now() - started) / 1000).toFixed(0)} s; faults: ${faults.join(', ')}\n`);
  const urls = services.map((s) => s.url);
  const tournament = tournamentThroughFaults(urls, Number(flag('players', '6')), Number(flag('rounds', '3')), Date.now() + 3_600_000);
  const report = await failoverCheck(cluster, urls, {
    faults,
    bots: Number(flag('bots', '12')),
    movesBetween: Number(flag('moves', '400')),
    timeoutMs: 3_600_000,
    onNewGame: (bot) => tally.register(bot),
  });
  const swiss = await tournament;
  const webhooks = await tally.settle(cluster.databaseUrl, 300_000);
  const faultsWhileSwiss = report.recoveries.filter((r) => r.at >= swiss.from && r.at <= swiss.to).length;
  const ms = (kind?: Fault) =>
    report.recoveries
      .filter((r) => !kind || r.fault === kind)
      .map((r) => r.ms)
      .sort((a, b) => a - b);
  const p50 = (xs: number[]) => (xs.length ? `${(xs[Math.floor((xs.length - 1) / 2)] / 1000).toFixed(1)} s` : '-');
  const max = (xs: number[]) => (xs.length ? `${(xs.at(-1)! / 1000).toFixed(1)} s` : '-');
  const rows: [string, string | number][] = [
    ['cluster', `${nodes} PostgreSQL nodes, synchronous_mode${strict ? '_strict' : ''}`],
    ['faults', `${kills} kills (-9 of Patroni and PostgreSQL), ${switchovers} switchovers`],
    ['games', report.games],
    ['moves acknowledged', report.acknowledged],
    ['found afterwards', report.found],
    ['lost', report.lost.length],
    ['stored twice', report.duplicates.length],
    ['stale reads (stored, not shown by an instance once settled)', report.staleReads.length],
    ['games failing verification', report.unverified.length],
    ['recovery after a kill, p50 / max', `${p50(ms('kill'))} / ${max(ms('kill'))}`],
    ['recovery after a switchover, p50 / max', `${p50(ms('switchover'))} / ${max(ms('switchover'))}`],
    ['each fault, in order (s)', report.recoveries.map((r) => `${r.fault} ${(r.ms / 1000).toFixed(1)}`).join(', ')],
    ['deadlines that fell during the faults: applied once / expected, twice', `${report.deadlines.applied} / ${report.deadlines.expected}, ${report.deadlines.twice}`],
    ['webhook messages: expected (in the outbox) / delivered (distinct webhook-id)', `${webhooks.expected} / ${webhooks.delivered}`],
    ['webhook messages: lost, received again (duplicates), given up', `${webhooks.lost}, ${webhooks.duplicates}, ${webhooks.givenUp}`],
    [
      'Swiss with autoPair: finished, rounds completed / total, paired by the service',
      `${swiss.finished ? 'yes' : 'NO'}, ${swiss.completedRounds} / ${swiss.totalRounds}, ${swiss.pairedByTheService}`,
    ],
    ['Swiss: games, failing verification, standings, faults while it ran', `${swiss.games}, ${swiss.unverified.length}, ${swiss.standings} ranked, ${faultsWhileSwiss}`],
    ['refusals by code', JSON.stringify(report.refusals)],
    ['/readyz answers', JSON.stringify(report.readyz)],
    ['service log lines, warn / error', services.map((s) => `${count(s.log(), 'warn')} / ${count(s.log(), 'error')}`).join(', ')],
  ];
  process.stdout.write(`| | |\n| --- | --- |\n${rows.map(([k, v]) => `| ${k} | ${v} |`).join('\n')}\n`);
  for (const line of [...report.lost, ...report.duplicates, ...report.staleReads, ...report.unverified, ...swiss.unverified].slice(0, 20)) process.stdout.write(`  ${line}\n`);
  const { deadlines } = report;
  process.exitCode =
    report.lost.length + report.duplicates.length + report.staleReads.length + report.unverified.length + deadlines.twice + webhooks.lost + swiss.unverified.length === 0 &&
    deadlines.applied === deadlines.expected &&
    swiss.finished
      ? 0
      : 1;
} finally {
  // Written whatever happened: an instance that stopped answering says why there.
  for (const [i, s] of services.entries()) writeFileSync(`failover-instance-${i}.log`, s.log());
  for (const s of services) {
    s.process.kill('SIGTERM');
    await s.exited;
  }
  await tally.close();
  await cluster.down();
}
