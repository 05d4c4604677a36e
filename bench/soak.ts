/**
 * Soak benchmark: `npm run bench -- bench/soak.js [--pglite] [--minutes 10] [--clients 20]`.
 * Starts the built service as its own process and lets bots play backgammon, Chicken Foot and
 * Cerke games for the given time (each bot starts a new game when one ends, and reads the game's
 * events and bundle now and then, as spectators and verifiers do), sampling the service's
 * resident memory (VmRSS) every 20 s. Prints the curve, and the change from the end of the
 * warm-up (the first quarter) to the end: memory that plateaus stays within a few percent.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededRandom } from '../src/engines/kit/index.js';
import { ENGINES } from '../src/games/index.js';
import { Bot } from '../tools/bot.js';
import { startService } from '../tools/service.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const usePglite = args.includes('--pglite');
const minutes = Number(flag('minutes', '10'));
const clients = Number(flag('clients', '20'));
const databaseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const SETUPS = [
  { kind: 'backgammon', ruleset: { autoRoll: true }, avoid: ['resign', 'double'] },
  { kind: 'cerke', ruleset: {}, avoid: ['resign'] },
];

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function main() {
  const dataDir = usePglite ? mkdtempSync(join(tmpdir(), 'arbiter-soak-')) : null;
  const service = await startService(usePglite ? { DATA_DIR: dataDir! } : { DATABASE_URL: databaseUrl }, 3700 + Math.floor(Math.random() * 100));
  const pid = service.process.pid!;
  const out = (s: string) => process.stdout.write(`${s}\n`);
  out(`Arbiter soak: ${clients} bots for ${minutes} min on ${usePglite ? 'embedded PGlite' : 'PostgreSQL'}, service pid ${pid}`);
  const until = Date.now() + minutes * 60_000;
  const samples: { at: number; rss: number; moves: number }[] = [];
  let moves = 0;
  let games = 0;
  let reads = 0;
  const sampler = setInterval(() => samples.push({ at: (Date.now() - (until - minutes * 60_000)) / 1000, rss: rssMb(pid), moves }), 20_000);
  samples.push({ at: 0, rss: rssMb(pid), moves: 0 });
  try {
    await Promise.all(
      Array.from({ length: clients }, async (_, c) => {
        const setup = SETUPS[c % SETUPS.length];
        const engine = ENGINES.find((e) => e.kind === setup.kind)!;
        const bot = new Bot(service.url, engine, setup.ruleset, seededRandom(c * 104729 + 1), `soak-${c}-${Date.now()}`, setup.avoid);
        await bot.newGame();
        games++;
        while (Date.now() < until) {
          if (bot.finished()) {
            await fetch(`${service.url}/api/games/${bot.gameId}/bundle`).then((r) => r.arrayBuffer());
            reads++;
            await bot.newGame();
            games++;
            continue;
          }
          if ((await bot.move()).accepted) moves++;
          if (moves % 50 === c) {
            await fetch(`${service.url}/api/games/${bot.gameId}/events`).then((r) => r.arrayBuffer());
            reads++;
          }
        }
      }),
    );
  } finally {
    clearInterval(sampler);
    samples.push({ at: minutes * 60, rss: rssMb(pid), moves });
    service.process.kill('SIGTERM');
    await service.exited;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
  for (const s of samples) out(`t=${s.at.toFixed(0).padStart(4)} s   rss ${s.rss.toFixed(0).padStart(5)} MB   moves ${s.moves}`);
  const warm = samples.find((s) => s.at >= (minutes * 60) / 4) ?? samples[0];
  const end = samples.at(-1)!;
  const peak = Math.max(...samples.map((s) => s.rss));
  out(`${moves} moves, ${games} games, ${reads} event and bundle reads`);
  out(
    `rss after warm-up (t=${warm.at.toFixed(0)} s) ${warm.rss.toFixed(0)} MB, at the end ${end.rss.toFixed(0)} MB (${(((end.rss - warm.rss) / warm.rss) * 100).toFixed(1)}%), peak ${peak.toFixed(0)} MB`,
  );
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});
