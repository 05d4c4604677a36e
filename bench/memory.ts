/**
 * Memory benchmark: `npm run bench -- bench/memory.js [--pglite | --postgres URL] [--seconds 60]
 * [--clients 20] [--settle 15] [--restart] [--entry path/to/dist/src/main.js]`.
 * Starts the built service as its own process (on the embedded database in a new data folder by
 * default, or on the PostgreSQL at URL), and measures its memory at three points: idle after
 * start (`--settle` seconds after it answers), during a soak of games played through the API for
 * `--seconds` (bots playing backgammon and Cerke and reading their games' events and bundles, as
 * bench/soak does; the peak of samples every second), and idle again `--settle` seconds after
 * the soak. With `--restart` the service is first started once on the folder and stopped, so the
 * figures are those of a later start (migrations already applied), not of a new folder's first.
 *
 * Each point splits the resident memory (VmRSS): the JS heap, from the service's own /metrics
 * (prom-client's `nodejs_heap_size_total_bytes`); the WebAssembly memory that is resident (the
 * embedded database's: PostgreSQL's heap and shared memory, which grows and never shrinks), read
 * from /proc/PID/smaps, and how much is allocated (V8 reserves 8 GiB or more of address space for
 * each such memory, and its accessible start is the memory: an anonymous mapping directly
 * followed by an inaccessible one, 4 GiB or more together); and the rest (native: compiled code,
 * the allocator's arenas, the node binary). Also printed: the process' peak RSS so far (VmHWM) and
 * the soak's moves per second with the service's CPU time a move (less sensitive than moves/s to
 * other work on the machine). `--entry` runs another build of the service (an earlier commit's
 * dist/src/main.js), to measure before and after with the same bench.
 */
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededRandom } from '../src/engines/kit/index.js';
import { ENGINES } from '../src/games/index.js';
import { Bot } from '../tools/bot.js';
import { startService, type RunningService } from '../tools/service.js';
import { benchArgs } from './lib/args.js';
import { loadAverage, processCpuSeconds, processMemory } from './lib/cpu.js';

const { args, flag, postgresUrl } = benchArgs();
const seconds = Number(flag('seconds', '60'));
const clients = Number(flag('clients', '20'));
const settle = Number(flag('settle', '15'));
const restart = args.includes('--restart');
const entry = flag('entry', '') || undefined;
const SETUPS = [
  { kind: 'backgammon', ruleset: { autoRoll: true }, avoid: ['resign', 'double'] },
  { kind: 'cerke', ruleset: {}, avoid: ['resign'] },
];
const MB = 1024 * 1024;

interface Reading {
  rss: number;
  hwm: number;
  heap: number;
  /** WebAssembly memory: resident, and allocated. */
  wasm: number;
  wasmSize: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function read(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve(text));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The resident and allocated WebAssembly memory of a process, in MiB (see above for how it is told apart). */
function wasmMemory(pid: number): { resident: number; size: number } {
  const lines = readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n');
  const maps: { start: bigint; end: bigint; perms: string; anonymous: boolean; rss: number }[] = [];
  for (const line of lines) {
    const range = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (range) maps.push({ start: BigInt(`0x${range[1]}`), end: BigInt(`0x${range[2]}`), perms: range[3], anonymous: range[4] === '', rss: 0 });
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && maps.length) maps[maps.length - 1].rss = Number(rss[1]) / 1024;
  }
  let resident = 0;
  let size = 0;
  for (let i = 0; i + 1 < maps.length; i++) {
    const [memory, reserve] = [maps[i], maps[i + 1]];
    if (memory.anonymous && memory.perms.startsWith('rw') && reserve.perms.startsWith('---') && reserve.start === memory.end && reserve.end - memory.start >= 4n * 1024n * BigInt(MB)) {
      resident += memory.rss;
      size += Number(memory.end - memory.start) / MB;
    }
  }
  return { resident, size };
}

/** The service's memory now, in MiB. */
async function measure(service: RunningService): Promise<Reading> {
  const text = await read(`${service.url}/metrics`);
  const heap = Number(/^nodejs_heap_size_total_bytes (\S+)/m.exec(text)?.[1] ?? Number.NaN) / MB;
  const pid = service.process.pid!;
  const mem = processMemory(pid);
  if (!mem) throw new Error('the service is gone');
  const wasm = wasmMemory(pid);
  return { rss: mem.rss, hwm: mem.peak, heap, wasm: wasm.resident, wasmSize: wasm.size };
}

async function stop(service: RunningService): Promise<void> {
  service.process.kill('SIGTERM');
  await service.exited;
}

/** Bots play until `until`; answers the moves accepted. */
async function soak(url: string, until: number): Promise<number> {
  let moves = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      const setup = SETUPS[c % SETUPS.length];
      const engine = ENGINES.find((e) => e.kind === setup.kind)!;
      const bot = new Bot(url, engine, setup.ruleset, seededRandom(c * 104729 + 1), `memory-${c}-${Date.now()}`, setup.avoid);
      await bot.newGame();
      while (Date.now() < until) {
        if (bot.finished()) {
          await read(`${url}/api/games/${bot.gameId}/bundle`);
          await bot.newGame();
        } else if ((await bot.move()).accepted && moves++ % 50 === c) {
          await read(`${url}/api/games/${bot.gameId}/events`);
        }
      }
    }),
  );
  return moves;
}

async function main() {
  const out = (s: string) => process.stdout.write(`${s}\n`);
  const dataDir = postgresUrl ? null : mkdtempSync(join(tmpdir(), 'arbiter-memory-'));
  const env: Record<string, string> = postgresUrl ? { DATABASE_URL: postgresUrl } : { DATA_DIR: dataDir! };
  const port = () => 3800 + Math.floor(Math.random() * 100);
  try {
    if (restart) await stop(await startService(env, port(), { entry }));
    const service = await startService(env, port(), { entry });
    out(
      `Arbiter memory: ${postgresUrl ? 'PostgreSQL' : 'embedded PGlite'}${restart ? ' (a later start)' : ' (a new folder)'}, ${clients} bots for ${seconds} s, idle readings ${settle} s after; service pid ${service.process.pid}, load average ${loadAverage()}`,
    );
    try {
      await sleep(settle * 1000);
      const idle = await measure(service);

      const cpuBefore = processCpuSeconds(service.process.pid!) ?? Number.NaN;
      const started = Date.now();
      const until = started + seconds * 1000;
      let peak = idle;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          const now = await measure(service);
          if (now.rss > peak.rss) peak = now;
          await sleep(1000);
        }
      })();
      const moves = await soak(service.url, until);
      const elapsed = (Date.now() - started) / 1000;
      const cpu = (processCpuSeconds(service.process.pid!) ?? Number.NaN) - cpuBefore;
      sampling = false;
      await sampler;

      await sleep(settle * 1000);
      const after = await measure(service);

      const row = (name: string, r: Reading) =>
        `${name.padEnd(18)}${[r.rss, r.heap].map((v) => v.toFixed(0).padStart(8)).join('')}${`${r.wasm.toFixed(0)} of ${r.wasmSize.toFixed(0)}`.padStart(12)}${[r.rss - r.heap - r.wasm, r.hwm].map((v) => v.toFixed(0).padStart(8)).join('')}`;
      out(`${''.padEnd(18)}${['RSS', 'JS heap'].map((h) => h.padStart(8)).join('')}${'WASM'.padStart(12)}${['rest', 'VmHWM'].map((h) => h.padStart(8)).join('')}   (MiB)`);
      out(row('idle after start', idle));
      out(row('soak, peak RSS', peak));
      out(row('idle after soak', after));
      out(`${moves} moves in ${elapsed.toFixed(0)} s: ${(moves / elapsed).toFixed(0)} moves/s, ${((cpu * 1000) / moves).toFixed(2)} CPU-ms of the service a move; load average ${loadAverage()}`);
    } finally {
      await stop(service);
    }
  } finally {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});
