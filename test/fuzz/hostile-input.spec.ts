import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { Config } from '../../src/config/config.js';
import { DatabaseService } from '../../src/database/database.service.js';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { TournamentService } from '../../src/referee/application/tournament.service.js';
import { EventStore } from '../../src/referee/store/event-store.js';
import { TournamentStore } from '../../src/referee/store/tournament-store.js';
import { startApp, type TestApp } from '../support/app.js';
import { ownDatabase } from '../support/own-database.js';
import { CREATE } from '../support/queries.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { type Figures, HostileGenerator, run } from '../../tools/hostile.js';
import { type GameTargets, type SeededGame, seedTournaments, seedWebhooks, type Targets } from '../../tools/hostile-targets.js';

/**
 * 10,000 hostile inputs (fixed seed) over GraphQL and REST against the whole service on a real
 * database: PostgreSQL (TEST_DATABASE_URL; a database of its own, created and dropped here, so
 * that other suites' games do not count) or a fresh embedded PGlite. They aim at games (one of
 * each kind and state), tournaments (one registering, one running with a game waiting for its
 * result, one finished) and webhooks (a seat's and an organizer's, to a loopback receiver the
 * service allows): every operation on them, each state-changing one poisoned (tools/hostile.ts).
 * Asserted: no answer is a 5xx or an INTERNAL error, every error has a stable code (REST in the
 * { error: { code, message } } shape), nothing is accepted, no game, tournament, participant or
 * webhook changes or is created (stored heads, streams, rows, secrets and counts), the service
 * still takes valid commands afterwards, and the process's RSS grows by less than RSS_BOUND_MB.
 * FUZZ_INPUTS and FUZZ_SEED override the figures.
 *
 * Timeouts are safety nets only: nothing here depends on the machine's speed.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_130);
const INPUTS = Number(process.env.FUZZ_INPUTS ?? 10_000);
const CONCURRENCY = 4;
/**
 * The service runs in this process (with the client and Jest). The JavaScript heap, measured
 * after a full collection before and after the run, may grow by at most HEAP_BOUND_MB: that is
 * what a leak would show (measured: +46 to +48 MB for 10,000 inputs over games, tournaments and
 * webhooks, Apollo's cache of parsed documents and the HTTP metrics' series for odd paths). The
 * RSS may grow by at most RSS_BOUND_MB (measured: +225 to +375 MB; bodies of up to 1 MB and
 * 8 MB gzip bombs leave the allocator with pages it keeps, PGlite's WebAssembly memory only
 * grows, and when the collector runs varies with the machine's load).
 */
const RSS_BOUND_MB = 768;
const HEAP_BOUND_MB = 64;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const heapAfterGc = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

/**
 * Every input comes from one address: per-address quotas (games created an hour, connections),
 * where the service has them, would answer most inputs with 429 before they are validated.
 */
const NO_QUOTAS = { createQuotaPerHour: 0, maxConnectionsPerAddress: 0 } as unknown as Partial<Config>;

let t: TestApp;
let database: Awaited<ReturnType<typeof ownDatabase>> = null;
let receiver: WebhookReceiver;

beforeAll(async () => {
  database = await ownDatabase('fuzz');
  receiver = await WebhookReceiver.start();
  const hosts: Partial<Config> = { webhookAllowedHosts: [{ hostname: '127.0.0.1', port: receiver.port }] };
  t = await startApp({ ...NO_QUOTAS, ...hosts, ...(database ? { databaseUrl: database.url } : {}) });
}, 300_000);

afterAll(async () => {
  await t?.close();
  await receiver?.stop();
  await database?.drop();
}, 300_000);

async function create(input: Record<string, unknown>): Promise<SeededGame> {
  const res = await t.gql(CREATE, { input });
  expect(res.data.createGame.__typename).toBe('GameCreated');
  const { game, tokens } = res.data.createGame;
  return { id: game.id, kind: input.kind as string, tokens: tokens.map((x: { token: string }) => x.token) };
}

/** One game of each kind and state the inputs aim at. */
async function setUpGames(): Promise<Omit<GameTargets, 'paired'>> {
  const duel = await create({ kind: 'duel', ruleset: { cards: 12, handSize: 3 } });
  const waiting = await create({ kind: 'duel', seats: [{ name: 'Ann' }, { open: true }] });
  const finished = await create({ kind: 'duel' });
  const resigned = await t.gql('mutation($g: ID!) { resignGame(gameId: $g, moveId: "setup") { __typename } }', { g: finished.id }, finished.tokens[0]);
  expect(resigned.data.resignGame.__typename).toBe('MoveAccepted');
  const chickenFoot = await create({ kind: 'chicken-foot', ruleset: { players: 2 } });
  const cerke = await create({ kind: 'cerke' });
  const backgammon = await create({ kind: 'backgammon', ruleset: { matchLength: 3 } });
  const record = readFileSync(join(import.meta.dirname, '../fixtures/chicken-foot/classic-3-players.json'), 'utf8');
  const imp = await t.gql('mutation($r: String!) { importGame(kind: "chicken-foot", record: $r) { __typename ... on GameCreated { game { id } tokens { token } } } }', { r: record });
  expect(imp.data.importGame.__typename).toBe('GameCreated');
  const imported = { id: imp.data.importGame.game.id, kind: 'chicken-foot', tokens: imp.data.importGame.tokens.map((x: { token: string }) => x.token) };
  return { duel, waiting, finished, chickenFoot, cerke, backgammon, imported };
}

/** The games, the tournaments (the running one's game among the games) and the webhooks, registered once nothing more happens to them. */
async function setUp(): Promise<Targets> {
  const games = await setUpGames();
  const { tournaments, paired } = await seedTournaments(t.gql);
  const webhooks = await seedWebhooks(t.gql, games.duel.tokens[0], tournaments.running, receiver.url);
  return { games: { ...games, paired }, tournaments, webhooks };
}

/**
 * Everything a hostile input could change: each game's stored head, seats and events and its live
 * copy; each tournament's stored head, stream, participants and live state; every webhook row with
 * its secret; and how many games, tournaments, participants, webhooks and webhook messages there are.
 */
async function snapshot(targets: Targets) {
  const store = t.app.get(EventStore);
  const referee = t.app.get(RefereeService);
  const games: Record<string, unknown> = {};
  for (const [label, g] of Object.entries(targets.games)) {
    const row = await store.game(g.id);
    const events = await store.events(g.id);
    const live = await referee.game(g.id);
    games[label] = {
      version: row?.version,
      status: row?.status,
      headHash: row?.headHash,
      result: row?.result,
      seats: row?.seats,
      events: events.length,
      lastHash: events.at(-1)?.hash,
      live: { version: live.version, status: live.status, seats: live.seats },
    };
  }
  const tournamentStore = t.app.get(TournamentStore);
  const service = t.app.get(TournamentService);
  const { pool } = t.app.get(DatabaseService);
  const tournaments: Record<string, unknown> = {};
  for (const [label, x] of Object.entries(targets.tournaments)) {
    const row = await tournamentStore.tournament(x.id);
    const events = await tournamentStore.events(x.id);
    const live = await service.tournament(x.id);
    const participants = await pool.query('SELECT id, registration_no, name, token_hash FROM participants WHERE tournament_id = $1 ORDER BY registration_no', [x.id]);
    tournaments[label] = {
      version: row?.version,
      status: row?.status,
      headHash: row?.headHash,
      events: events.length,
      lastHash: events.at(-1)?.hash,
      participants: participants.rows,
      live: { version: live.version, finished: live.finished, participants: live.participants, settings: live.settings, rounds: live.rounds.length },
    };
  }
  const webhooks = await pool.query(
    'SELECT id, url, secret, events, low_time_thresholds, game_id, seat, tournament_id, participant_id, owner_token_hash, timeouts, suspended_at FROM webhooks ORDER BY id',
  );
  const counts = await pool.query(
    `SELECT (SELECT count(*) FROM games) AS games, (SELECT count(*) FROM tournaments) AS tournaments, (SELECT count(*) FROM participants) AS participants,
            (SELECT count(*) FROM webhooks) AS webhooks, (SELECT count(*) FROM webhook_messages) AS messages`,
  );
  return { games, tournaments, webhooks: webhooks.rows, counts: counts.rows[0] };
}

type Snapshot = Awaited<ReturnType<typeof snapshot>>;

/** The parts of two snapshots that differ: "games.duel", "tournaments.running", "webhooks", "counts". */
function changedParts(before: Snapshot, after: Snapshot): string[] {
  const parts = (s: Snapshot): Record<string, unknown> => ({
    ...Object.fromEntries(Object.entries(s.games).map(([k, v]) => [`games.${k}`, v])),
    ...Object.fromEntries(Object.entries(s.tournaments).map(([k, v]) => [`tournaments.${k}`, v])),
    webhooks: s.webhooks,
    counts: s.counts,
  });
  const [b, a] = [parts(before), parts(after)];
  return Object.keys(b).filter((k) => !isDeepStrictEqual(b[k], a[k]));
}

/** Lines of /metrics: a figure only (the HTTP route label is the raw path; see the report). */
const metricsLines = async () => (await (await fetch(`${t.url}/metrics`)).text()).split('\n').length;

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

function report(
  figures: Figures,
  counts: { before: unknown; after: unknown },
  changed: string[],
  rss: { before: number; after: number },
  heap: { before: number; after: number },
  metrics: { before: number; after: number },
  ms: number,
): string {
  const lines = [
    `hostile inputs on ${t.backend} (seed ${SEED}, ${CONCURRENCY} in flight, ${(ms / 1000).toFixed(0)} s): ${figures.sent} sent, ${figures.unsent} not sent`,
    `responses by status class: ${JSON.stringify(figures.byClass)}`,
    `accepted (state-changing) answers: ${figures.accepted}; problems: ${figures.problems.length}; changed: ${changed.length > 0 ? changed.join(', ') : 'nothing'}`,
    `rows before ${JSON.stringify(counts.before)}, after ${JSON.stringify(counts.after)}`,
    `RSS before ${mb(rss.before)} MB, after ${mb(rss.after)} MB (growth ${mb(rss.after - rss.before)} MB, bound ${RSS_BOUND_MB} MB); heap after GC ${mb(heap.before)} -> ${mb(heap.after)} MB (bound +${HEAP_BOUND_MB} MB)`,
    `/metrics lines ${metrics.before} -> ${metrics.after}`,
    `codes: ${JSON.stringify(Object.fromEntries(Object.entries(figures.codes).sort((a, b) => b[1] - a[1])))}`,
    `families: ${JSON.stringify(figures.byFamily)}`,
    ...figures.problems.slice(0, 25).map((p) => `  ${p.problem} <- ${p.family} ${p.method} ${p.path} ${p.body}`),
  ];
  return lines.join('\n');
}

describe('hostile input', () => {
  it(
    `answers ${INPUTS} hostile inputs with 4xx and stable codes, and changes nothing`,
    async () => {
      const targets = await setUp();
      const before = await snapshot(targets);
      const metricsBefore = await metricsLines();
      const heapBefore = heapAfterGc();
      const rssBefore = process.memoryUsage().rss;
      const generator = new HostileGenerator(SEED, targets);
      const inputs = (function* () {
        for (let i = 0; i < INPUTS; i++) yield generator.next();
      })();
      const started = performance.now();
      const figures = await run(t.url, inputs, CONCURRENCY);
      const ms = performance.now() - started;
      const heapAfter = heapAfterGc();
      const rssAfter = process.memoryUsage().rss;
      const after = await snapshot(targets);
      const metricsAfter = await metricsLines();
      const changed = changedParts(before, after);
      process.stdout.write(
        `${report(figures, { before: before.counts, after: after.counts }, changed, { before: rssBefore, after: rssAfter }, { before: heapBefore, after: heapAfter }, { before: metricsBefore, after: metricsAfter }, ms)}\n`,
      );

      expect(figures.unsent).toBe(0);
      expect(figures.sent).toBe(INPUTS);
      expect(figures.byClass['5xx'] ?? 0).toBe(0);
      expect(figures.problems.slice(0, 10)).toEqual([]);
      expect(figures.accepted).toBe(0);
      expect(after).toEqual(before);
      expect(rssAfter - rssBefore).toBeLessThan(RSS_BOUND_MB * 1024 * 1024);
      expect(heapAfter - heapBefore).toBeLessThan(HEAP_BOUND_MB * 1024 * 1024);

      // The service still plays: a valid move on the duel is accepted.
      const { duel } = targets.games;
      const state = (await t.gql('query($id: ID!) { game(id: $id) { version legalActions toAct } }', { id: duel.id }, duel.tokens[0])).data.game;
      const seat = state.toAct[0];
      const mine = (await t.gql('query($id: ID!) { game(id: $id) { legalActions } }', { id: duel.id }, duel.tokens[seat])).data.game;
      const moved = await t.gql(
        'mutation($g: ID!, $a: JSON!, $v: Int) { submitAction(gameId: $g, moveId: "after-fuzz", action: $a, expectedVersion: $v) { __typename } }',
        { g: duel.id, a: mine.legalActions[0], v: state.version },
        duel.tokens[seat],
      );
      expect(moved.data.submitAction.__typename).toBe('MoveAccepted');
      // So does the open tournament (anyone registers), and the seat's webhook takes a new secret from its token.
      const registered = await t.gql(
        'mutation($t: ID!) { registerParticipant(tournamentId: $t, name: "After") { __typename ... on ParticipantRegistered { participantId } ... on Rejection { code message } } }',
        { t: targets.tournaments.registering.id },
      );
      expect(registered.data?.registerParticipant.participantId).toEqual(expect.any(String));
      const hook = targets.webhooks.seat;
      const rotated = await t.gql('mutation($w: ID!) { rotateWebhookSecret(id: $w) { ... on WebhookSecret { secret } } }', { w: hook.id }, hook.ownerToken);
      expect(rotated.data?.rotateWebhookSecret.secret).toEqual(expect.stringMatching(/^whsec_/));
    },
    60 * 60_000,
  );
});
