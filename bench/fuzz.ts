/**
 * Hostile input against the built service in its own process: `npm run bench -- bench/fuzz.js
 * [--pglite] [--inputs 10000] [--seed 20261130] [--concurrency 4]`. The inputs are the ones of
 * test/fuzz/hostile-input.spec.ts (same generator, same seed); here the service's resident memory
 * (VmRSS of its process alone) is read before and after, and its state through its own API (a
 * webhook's secret is not readable there: a new one would show as an accepted answer).
 * Prints the figures; exits 1 on a 5xx, an INTERNAL code, an accepted answer, or a changed or
 * created game, tournament or webhook. PostgreSQL runs use a database of their own (created and
 * dropped here).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { HostileGenerator, run } from '../tools/hostile.js';
import { type GameTargets, type SeededGame, seedTournaments, seedWebhooks, type Targets } from '../tools/hostile-targets.js';
import { startService } from '../tools/service.js';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const usePglite = args.includes('--pglite');
const inputs = Number(flag('inputs', '10000'));
const seed = Number(flag('seed', '20261130'));
const concurrency = Number(flag('concurrency', '4'));
const baseUrl = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
/** The webhook receiver the service allows: nothing listens there, and nothing is sent (no game or tournament changes in a run). */
const HOOKS_HOST = '127.0.0.1:9';

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const out = (s: string) => process.stdout.write(`${s}\n`);

async function gql(url: string, query: string, variables: Record<string, unknown> = {}, token?: string): Promise<any> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return res.json();
}

const CREATE = 'mutation($input: CreateGameInput!) { createGame(input: $input) { __typename ... on GameCreated { game { id } tokens { token } } ... on Rejection { code message } } }';

async function create(url: string, input: Record<string, unknown>): Promise<SeededGame> {
  const res = await gql(url, CREATE, { input });
  const created = res.data?.createGame;
  if (created?.__typename !== 'GameCreated') throw new Error(`set-up: ${JSON.stringify(res)}`);
  return { id: created.game.id, kind: input.kind as string, tokens: created.tokens.map((x: { token: string }) => x.token) };
}

/** The games of test/fuzz, with real engines only (the built service has no test-only duel). */
async function setUpGames(url: string): Promise<Omit<GameTargets, 'paired'>> {
  const duel = await create(url, { kind: 'cerke' });
  const waiting = await create(url, { kind: 'backgammon', seats: [{ name: 'Ann' }, { open: true }] });
  const finished = await create(url, { kind: 'backgammon' });
  await gql(url, 'mutation($g: ID!) { resignGame(gameId: $g, moveId: "setup") { __typename } }', { g: finished.id }, finished.tokens[0]);
  const chickenFoot = await create(url, { kind: 'chicken-foot', ruleset: { players: 2 } });
  const cerke = await create(url, { kind: 'cerke', ruleset: { profile: 'strict' } });
  const backgammon = await create(url, { kind: 'backgammon', ruleset: { matchLength: 3 } });
  const record = readFileSync(join(import.meta.dirname, '../../test/fixtures/chicken-foot/classic-3-players.json'), 'utf8');
  const imp = await gql(url, 'mutation($r: String!) { importGame(kind: "chicken-foot", record: $r) { __typename ... on GameCreated { game { id } tokens { token } } } }', { r: record });
  const imported = { id: imp.data.importGame.game.id, kind: 'chicken-foot', tokens: imp.data.importGame.tokens.map((x: { token: string }) => x.token) };
  return { duel, waiting, finished, chickenFoot, cerke, backgammon, imported };
}

/** The targets of test/fuzz: the games, the tournaments (the running one's game among the games) and the webhooks. */
async function setUp(url: string): Promise<Targets> {
  const call = (query: string, variables?: Record<string, unknown>, token?: string) => gql(url, query, variables, token);
  const games = await setUpGames(url);
  const { tournaments, paired } = await seedTournaments(call);
  const webhooks = await seedWebhooks(call, games.duel.tokens[0], tournaments.running, `http://${HOOKS_HOST}/hooks`);
  return { games: { ...games, paired }, tournaments, webhooks };
}

/** Each target's head and events (or participants) as the API serves them, whether each webhook is there, and how many games and tournaments there are. */
async function snapshot(url: string, targets: Targets) {
  const games: Record<string, unknown> = {};
  for (const [label, g] of Object.entries(targets.games)) {
    const game = await (await fetch(`${url}/api/games/${g.id}`)).json();
    const events = (await (await fetch(`${url}/api/games/${g.id}/events`)).text()).trim().split('\n');
    games[label] = { version: game.version, status: game.status, seats: game.seats, events: events.length, last: events.at(-1) };
  }
  let count = 0;
  let after: string | null = null;
  for (;;) {
    const page: any = (await gql(url, 'query($a: String) { games(first: 100, after: $a) { nodes { id } pageInfo { endCursor hasNextPage } } }', { a: after })).data.games;
    count += page.nodes.length;
    if (!page.pageInfo.hasNextPage) break;
    after = page.pageInfo.endCursor;
  }
  const tournaments: Record<string, unknown> = {};
  for (const [label, x] of Object.entries(targets.tournaments)) {
    tournaments[label] = (await gql(url, 'query($id: ID!) { tournament(id: $id) { version headHash status participants { id name withdrawnAfterRound } } }', { id: x.id })).data;
  }
  let tournamentCount = 0;
  for (let last: string | null = null; ; ) {
    const page: { nodes: unknown[]; pageInfo: { endCursor: string | null; hasNextPage: boolean } } = (
      await gql(url, 'query($a: String) { tournaments(first: 100, after: $a) { nodes { id } pageInfo { endCursor hasNextPage } } }', { a: last })
    ).data.tournaments;
    tournamentCount += page.nodes.length;
    if (!page.pageInfo.hasNextPage) break;
    last = page.pageInfo.endCursor;
  }
  const webhooks: Record<string, unknown> = {};
  for (const w of [targets.webhooks.seat, targets.webhooks.organizer]) {
    webhooks[w.id] = (await gql(url, 'query($id: ID!) { webhookDeliveries(id: $id) { pageInfo { hasNextPage } } }', { id: w.id }, w.ownerToken)).errors ?? 'there';
  }
  return JSON.stringify({ games, count, tournaments, tournamentCount, webhooks });
}

async function main() {
  const dataDir = usePglite ? mkdtempSync(join(tmpdir(), 'arbiter-fuzz-')) : null;
  const dbName = usePglite ? null : `arbiter_fuzz_${process.pid}_${Date.now()}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: baseUrl });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  let databaseUrl = '';
  if (dbName) {
    await admin(`CREATE DATABASE "${dbName}"`);
    const u = new URL(baseUrl);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  // One client address sends everything: per-address quotas would answer most inputs with 429.
  const env = { CREATE_QUOTA_PER_HOUR: '0', MAX_CONNECTIONS_PER_ADDRESS: '0', WEBHOOK_ALLOWED_HOSTS: HOOKS_HOST, ...(dataDir ? { DATA_DIR: dataDir } : { DATABASE_URL: databaseUrl }) };
  const service = await startService(env, 3800 + Math.floor(Math.random() * 100));
  const pid = service.process.pid!;
  let failed = false;
  try {
    const targets = await setUp(service.url);
    const before = await snapshot(service.url, targets);
    const rssBefore = rssMb(pid);
    const generator = new HostileGenerator(seed, targets);
    const started = performance.now();
    const figures = await run(
      service.url,
      (function* () {
        for (let i = 0; i < inputs; i++) yield generator.next();
      })(),
      concurrency,
    );
    const seconds = (performance.now() - started) / 1000;
    const rssAfter = rssMb(pid);
    const after = await snapshot(service.url, targets);
    const changed = after !== before;
    out(
      `Arbiter hostile input on ${usePglite ? 'embedded PGlite' : 'PostgreSQL'} (seed ${seed}, ${concurrency} in flight): ${figures.sent} sent, ${figures.unsent} not sent, in ${seconds.toFixed(0)} s`,
    );
    out(`responses by status class: ${JSON.stringify(figures.byClass)}`);
    out(`accepted (state-changing) answers: ${figures.accepted}; games, tournaments or webhooks changed or created: ${changed ? 'YES' : 'none'}`);
    out(`problems: ${figures.problems.length}`);
    out(`service RSS (VmRSS) before ${rssBefore.toFixed(0)} MB, after ${rssAfter.toFixed(0)} MB (${(rssAfter - rssBefore).toFixed(0)} MB)`);
    out(`codes: ${JSON.stringify(Object.fromEntries(Object.entries(figures.codes).sort((a, b) => b[1] - a[1])))}`);
    for (const p of figures.problems.slice(0, 20)) out(`  ${p.problem} <- ${p.family} ${p.method} ${p.path} ${p.body.slice(0, 300)}`);
    failed = figures.unsent > 0 || (figures.byClass['5xx'] ?? 0) > 0 || figures.problems.length > 0 || figures.accepted > 0 || changed;
  } finally {
    service.process.kill('SIGTERM');
    await service.exited;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (dbName) await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  }
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  process.stderr.write(`${err?.stack ?? err}\n`);
  process.exit(1);
});
