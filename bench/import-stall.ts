/**
 * Import stall benchmark: `npm run bench -- bench/import-stall.js [--pglite | --postgres URL]
 * [--games idle,backgammon,cerke,recordResult] [--bytes 1000000] [--record-bytes 900000]
 * [--entry path/to/dist/src/main.js]` (issue 24, finding 5).
 *
 * Starts the built service as its own process (embedded PGlite in a new data folder by default,
 * or the PostgreSQL at URL) and imports one long record of each game asked for, generated here
 * by random players (tools/long-records.ts: backgammon a match of about `--bytes` of .mat text,
 * other games their longest of a few random games). `recordResult` enters a backgammon record of
 * about `--record-bytes` as an organizer's result for a 2-player tournament's board.
 *
 * While each import runs, a poller asks /healthz (which reads no database) one request after
 * another. Printed for each: the record's size and events, how long the import took and how it
 * was answered, the longest /healthz answer and how many answered during the import, and the
 * service's own longest event-loop delay over the import (prom-client's
 * `nodejs_eventloop_lag_max_seconds`, from perf_hooks' monitorEventLoopDelay, read on /metrics
 * before, which starts a new window, and after). `idle` imports nothing for 10 s: the same
 * figures with /healthz alone, the floor a busy machine puts under the others. `--entry` runs another build (an earlier
 * commit's dist/src/main.js), to measure before and after with the same bench.
 */
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINES } from '../src/games/index.js';
import { type LongRecord, longRecord } from '../tools/long-records.js';
import { type RunningService, startService } from '../tools/service.js';
import { benchArgs } from './lib/args.js';
import { loadAverage } from './lib/cpu.js';

const { flag, postgresUrl } = benchArgs();
const games = flag('games', 'idle,backgammon,cerke,recordResult').split(',');
const bytes = Number(flag('bytes', '1000000'));
const recordBytes = Number(flag('record-bytes', '900000'));
const entry = flag('entry', '') || undefined;

const IMPORT = `mutation($kind: String!, $record: String!) { importGame(kind: $kind, record: $record) {
  __typename ... on GameCreated { game { id version } } ... on Rejection { code message } } }`;
const CREATE_TOURNAMENT =
  'mutation($input: CreateTournamentInput!) { createTournament(input: $input) { __typename ... on TournamentCreated { organizerToken tournament { id } } ... on Rejection { code message } } }';
const REGISTER =
  'mutation($id: ID!, $name: String!) { registerParticipant(tournamentId: $id, name: $name) { __typename ... on ParticipantRegistered { participantId } ... on Rejection { code message } } }';
const PAIR = 'mutation($id: ID!) { pairRound(tournamentId: $id, round: 1) { __typename ... on Tournament { rounds { boards { board } } } ... on Rejection { code message } } }';
const RECORD = 'mutation($id: ID!, $input: ResultInput!) { recordResult(tournamentId: $id, input: $input) { __typename ... on Tournament { status } ... on Rejection { code message } } }';

interface Measured {
  answer: string;
  importMs: number;
  /** The longest /healthz answer while the import ran, and how many answered. */
  healthzMaxMs: number;
  healthzAnswers: number;
  /** Of those, connections the server dropped. */
  healthzDropped: number;
  /** The service's longest event-loop delay over the import (monitorEventLoopDelay). */
  loopMaxMs: number;
}

async function loopLagMaxMs(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^nodejs_eventloop_lag_max_seconds (\S+)/m.exec(text)?.[1] ?? Number.NaN) * 1000;
}

/** Runs `work` while /healthz is asked again and again; answers how both went. */
/** One GraphQL request on a connection of its own: the records take seconds to make, and an idle kept-alive connection may be closed meanwhile. */
function gql(url: string, query: string, variables: Record<string, unknown>, token?: string): Promise<any> {
  const body = JSON.stringify({ query, variables });
  const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(token ? { authorization: `Bearer ${token}` } : {}) };
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/graphql`, { method: 'POST', agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString())));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** One /healthz request on a connection of its own (a kept-alive one may be closed by the server as it is reused). */
function healthz(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    http
      .get(`${url}/healthz`, { agent: false }, (res) => {
        res.resume();
        res.on('end', resolve);
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

async function measured(url: string, work: () => Promise<string>): Promise<Measured> {
  await loopLagMaxMs(url); // a new window for the service's own event-loop delay
  let running = true;
  let healthzMaxMs = 0;
  let healthzAnswers = 0;
  let healthzDropped = 0;
  const poller = (async () => {
    while (running) {
      // The answer that is under way when the import is answered counts too: a stall may follow the answer.
      const asked = performance.now();
      // A connection the server dropped while stalled counts as an answer that long.
      await healthz(url).catch(() => healthzDropped++);
      healthzAnswers++;
      healthzMaxMs = Math.max(healthzMaxMs, performance.now() - asked);
    }
  })();
  const started = performance.now();
  let answer: string;
  try {
    answer = await work();
  } finally {
    running = false;
  }
  const importMs = performance.now() - started;
  await poller;
  return { answer, importMs, healthzMaxMs, healthzAnswers, healthzDropped, loopMaxMs: await loopLagMaxMs(url) };
}

async function importGame(url: string, record: LongRecord): Promise<string> {
  const res = await gql(url, IMPORT, { kind: record.kind, record: record.text });
  const r = res.data?.importGame;
  if (!r) return `error ${JSON.stringify(res.errors).slice(0, 120)}`;
  return r.__typename === 'GameCreated' ? `imported, version ${r.game.version}` : `${r.code}: ${r.message.slice(0, 80)}`;
}

/** A 2-player tournament of the record's game, paired: the organizer enters the record as board 1's result. */
async function recordResult(url: string, record: LongRecord): Promise<() => Promise<string>> {
  const data = async (answer: Promise<any>) => {
    const res = await answer;
    if (res.errors || !res.data) throw new Error(`set-up: ${JSON.stringify(res).slice(0, 300)}`);
    return res.data;
  };
  const input = { name: 'Import night', kind: record.kind, ruleset: record.ruleset, format: 'SWISS', rounds: 1 };
  const created = (await data(gql(url, CREATE_TOURNAMENT, { input }))).createTournament;
  const { id } = created.tournament;
  for (const name of ['Ann', 'Bob']) await data(gql(url, REGISTER, { id, name }, created.organizerToken));
  const [{ board }] = (await data(gql(url, PAIR, { id }, created.organizerToken))).pairRound.rounds[0].boards;
  return async () => {
    const res = await gql(url, RECORD, { id, input: { round: 1, board, record: record.text } }, created.organizerToken);
    return res.data?.recordResult ? `recorded, tournament ${res.data.recordResult.status}` : `${res.errors?.[0]?.extensions?.code}: ${res.errors?.[0]?.message.slice(0, 80)}`;
  };
}

async function main() {
  const out = (s: string) => process.stdout.write(`${s}\n`);
  const dataDir = postgresUrl ? null : mkdtempSync(join(tmpdir(), 'arbiter-import-stall-'));
  // Bodies up to 8 MiB, so that the record's size is the bench's choice and not the limit's.
  const env: Record<string, string> = { ...(postgresUrl ? { DATABASE_URL: postgresUrl } : { DATA_DIR: dataDir! }), MAX_BODY_BYTES: String(8 * 1_048_576) };
  let service: RunningService | null = null;
  try {
    service = await startService(env, 3900 + Math.floor(Math.random() * 100), { entry });
    out(`Arbiter import stall: ${postgresUrl ? 'PostgreSQL' : 'embedded PGlite'}, service pid ${service.process.pid}, load average ${loadAverage()}`);
    out(`${'import'.padEnd(14)}${['KB', 'entries', 'import ms', 'loop max ms', 'healthz max ms', 'answers'].map((h) => h.padStart(15)).join('')}   answer`);
    for (const name of games) {
      if (name === 'idle') {
        const m = await measured(service.url, () => new Promise((r) => setTimeout(() => r('nothing imported'), 10_000)));
        out(`${name.padEnd(14)}${['', '', m.importMs.toFixed(0), m.loopMaxMs.toFixed(0), m.healthzMaxMs.toFixed(0), m.healthzAnswers].map((v) => String(v).padStart(15)).join('')}   ${m.answer}`);
        continue;
      }
      const kind = name === 'recordResult' ? 'backgammon' : name;
      const engine = ENGINES.find((e) => e.kind === kind);
      if (!engine) throw new Error(`--games: no game ${name} (games: ${ENGINES.map((e) => e.kind).join(', ')}, or recordResult)`);
      const record = longRecord(engine, name === 'recordResult' ? recordBytes : bytes);
      const url = service.url;
      const work = name === 'recordResult' ? await recordResult(url, record) : () => importGame(url, record);
      const m = await measured(url, work);
      const cells = [Buffer.byteLength(record.text) / 1000, record.entries, m.importMs, m.loopMaxMs, m.healthzMaxMs, m.healthzAnswers];
      out(`${name.padEnd(14)}${cells.map((v) => v.toFixed(0).padStart(15)).join('')}   ${m.answer}${m.healthzDropped ? ` (${m.healthzDropped} /healthz connections dropped)` : ''}`);
    }
  } catch (err) {
    if (service) process.stderr.write(`the service's log ends:\n${service.log().slice(-3000)}\n`);
    throw err;
  } finally {
    if (service) {
      service.process.kill('SIGTERM');
      await service.exited;
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
