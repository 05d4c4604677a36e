/**
 * A tournament at scale, through the API: `npm run bench -- bench/tournament-scale.js [--postgres URL]
 * [--participants 1000] [--rounds 9] [--clients 8] [--cpu-prof DIR]`.
 * Starts the built service (on a new PGlite folder, or a new database on the PostgreSQL server of
 * --postgres), creates a Swiss with `autoPair`, registers the participants in one bulk call, pairs
 * round 1 and lets the service pair every later round itself as the last result comes in. Bots
 * enter every result, --clients at a time: on even boards seat 1 resigns its refereed game with its
 * participant token; on odd boards the organizer enters an over-the-board result (a win for either side).
 * A reader polls a light tournament read all along. It prints, per round:
 * - pairing: round 1's pairRound call (games stored included; goal < 1 s), and for the rounds the
 *   service pairs, the time from the round's last result to its games existing, split at the
 *   RoundPaired event's instant into the wake-up and the pairing with its games stored;
 * - the p50/p99 of a result (resignation or entry, until the service answers) and of the read;
 * and the same over the whole event (goal: p99 < 100 ms). With --cpu-prof the service writes a
 * CPU profile of its whole life into DIR (node --cpu-prof) when it stops.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { seededRandom } from '../src/engines/kit/index.js';
import { startService } from '../tools/service.js';
import { benchArgs } from './lib/args.js';

const { flag, postgresUrl } = benchArgs();
const N = Number(flag('participants', '1000'));
const ROUNDS = Number(flag('rounds', '9'));
const CLIENTS = Number(flag('clients', '8'));
const random = seededRandom(27);

const now = () => performance.now();
const quantile = (xs: number[], q: number) => (xs.length === 0 ? Number.NaN : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]);
const f = (x: number) => (Number.isNaN(x) ? '-' : x >= 100 ? x.toFixed(0) : x.toFixed(1));

interface Game {
  gameId: string;
  seats: { id: string }[];
}
interface Board {
  board: number;
  games: Game[];
}

async function main() {
  const database = `arbiter_bench_scale_${process.pid}`;
  const dataDir = postgresUrl ? null : mkdtempSync(join(tmpdir(), 'arbiter-scale-'));
  const admin = postgresUrl ? new pg.Client({ connectionString: postgresUrl }) : null;
  let env: Record<string, string> = { DATA_DIR: dataDir ?? '' };
  if (admin && postgresUrl) {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    const u = new URL(postgresUrl);
    u.pathname = `/${database}`;
    env = { DATABASE_URL: u.toString() };
  }
  const profileDir = flag('cpu-prof', '');
  const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const service = await startService({ LOG_LEVEL: flag('log-level', 'warn'), ...env }, 20000 + Math.floor(Math.random() * 20000), { nodeArgs });
  try {
    await run(service.url);
  } catch (err) {
    await Promise.race([service.exited, new Promise((r) => setTimeout(r, 2000))]);
    console.error(
      `the service (exit ${service.process.exitCode ?? service.process.signalCode}) log:\n${service
        .log()
        .split('\n')
        .filter((l) => !l.includes(`"msg":"request"`))
        .join('\n')
        .slice(-4000)}`,
    );
    throw err;
  } finally {
    service.process.kill('SIGTERM');
    await service.exited;
    if (admin) {
      await admin.query(`DROP DATABASE IF EXISTS ${database}`);
      await admin.end();
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

async function run(url: string) {
  const gql = async (query: string, variables: Record<string, unknown>, token?: string) => {
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data?: Record<string, any>; errors?: { message: string }[] };
    if (body.errors) throw new Error(body.errors[0].message);
    const answer = Object.values(body.data!)[0];
    if (answer?.__typename === 'Rejection') throw new Error(`${answer.code}: ${answer.message}`);
    return answer;
  };
  const timed = async <T>(into: number[], call: () => Promise<T>): Promise<T> => {
    const start = now();
    const answer = await call();
    into.push(now() - start);
    return answer;
  };

  const created = await gql(
    `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { __typename ... on TournamentCreated { organizerToken tournament { id } } ... on Rejection { code message } } }`,
    { input: { name: 'Scale Swiss', kind: 'backgammon', backgammonRuleset: { matchLength: 1 }, format: 'SWISS', rounds: ROUNDS, schedule: { autoPair: true } } },
  );
  const id: string = created.tournament.id;
  const organizer: string = created.organizerToken;
  const rows = Array.from({ length: N }, (_, i) => ({ name: `P${i + 1}`, rating: 1000 + random(1500) }));
  const registered = await gql(
    `mutation($id: ID!, $rows: [ParticipantRowInput!]!) { registerParticipants(tournamentId: $id, participants: $rows) { __typename ... on ParticipantsRegistered { participants { participantId participantToken } } ... on Rejection { code message } } }`,
    { id, rows },
    organizer,
  );
  const tokens = new Map<string, string>(registered.participants.map((p: { participantId: string; participantToken: string }) => [p.participantId, p.participantToken]));
  console.log(`${N} participants registered; ${ROUNDS} rounds; ${CLIENTS} clients entering results (${postgresUrl ? 'PostgreSQL' : 'PGlite'})`);

  const ROUND = `query($id: ID!) { tournament(id: $id) { version rounds { round boards { board games { gameId seats { id } } } } } }`;
  const LIGHT = `query($id: ID!) { tournament(id: $id) { version status completedRounds } }`;
  const reads: number[] = [];
  const results: number[] = [];
  let reading = true;
  const reader = (async () => {
    while (reading) {
      await timed(reads, () => gql(LIGHT, { id }));
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  // A failed read ends the run with its error, not an unhandled rejection once the service is stopped.
  reader.catch(() => undefined);

  const pairOne: number[] = [];
  await timed(pairOne, () => gql(`mutation($id: ID!) { pairRound(tournamentId: $id) { __typename ... on Tournament { version } ... on Rejection { code message } } }`, { id }, organizer));
  console.log(`round 1 paired by pairRound in ${f(pairOne[0])} ms (games stored included)`);
  console.log('round  wake ms  pair+store ms  last result -> games ms  result p50/p99 ms  read p50/p99 ms');

  try {
    await rounds();
  } finally {
    reading = false;
  }
  await reader;
  console.log(
    `whole event: ${results.length} results p50 ${f(quantile(results, 0.5))} ms, p99 ${f(quantile(results, 0.99))} ms; ${reads.length} reads p50 ${f(quantile(reads, 0.5))} ms, p99 ${f(quantile(reads, 0.99))} ms (goal: p99 < 100 ms)`,
  );
  const full: number[] = [];
  for (let i = 0; i < 5; i++) await timed(full, () => fetch(`${url}/api/tournaments/${id}`).then((r) => r.json()));
  console.log(`GET /api/tournaments/:id after the event (standings and crosstable): median ${f(quantile(full, 0.5))} ms of 5`);

  async function rounds() {
    for (let round = 1; round <= ROUNDS; round++) {
      const boards: Board[] = await roundBoards(round);
      const readsBefore = reads.length;
      const resultsBefore = results.length;
      let next = 0;
      const work = async () => {
        while (next < boards.length) {
          const b = boards[next++];
          const game = b.games[0];
          if (b.board % 2 === 0) {
            await timed(results, () =>
              gql(
                `mutation($g: ID!, $m: String!) { resignGame(gameId: $g, moveId: $m) { __typename ... on Rejection { code message } } }`,
                { g: game.gameId, m: `resign-${round}` },
                tokens.get(game.seats[1].id),
              ),
            );
          } else {
            // Backgammon has no draws; a 1-point match is won 1-0.
            const first = random(2) === 0;
            const outcome = first ? 'WIN_SEAT0' : 'WIN_SEAT1';
            const gamePoints = first ? ['1', '0'] : ['0', '1'];
            await timed(results, () =>
              gql(
                `mutation($id: ID!, $input: ResultInput!) { recordResult(tournamentId: $id, input: $input) { __typename ... on Tournament { version } ... on Rejection { code message } } }`,
                { id, input: { round, board: b.board, outcome, gamePoints } },
                organizer,
              ),
            );
          }
        }
      };
      await Promise.all(Array.from({ length: CLIENTS }, work));
      const lastResult = now();
      const lastResultAt = Date.now();
      const roundResults = results.slice(resultsBefore);
      let split = { wake: Number.NaN, pair: Number.NaN };
      let gap = Number.NaN;
      if (round < ROUNDS) {
        // The next round exists once the service paired it: poll for it.
        for (;;) {
          const t = await gql(`query($id: ID!) { tournament(id: $id) { completedRounds rounds { round } } }`, { id });
          if (t.rounds.length > round) break;
          if (now() - lastResult > 120_000) throw new Error(`round ${round + 1} was not paired within 120 s of round ${round}'s last result`);
          await new Promise((r) => setTimeout(r, 10));
        }
        gap = now() - lastResult;
        split = await pairingSplit(round + 1, lastResultAt, gap);
      } else {
        for (;;) {
          const t = await gql(LIGHT, { id });
          if (t.status === 'FINISHED') break;
          await new Promise((r) => setTimeout(r, 10));
        }
      }
      const roundReads = reads.slice(readsBefore);
      console.log(
        `${String(round).padStart(5)}  ${f(split.wake).padStart(7)}  ${f(split.pair).padStart(13)}  ${f(gap).padStart(23)}  ${`${f(quantile(roundResults, 0.5))}/${f(quantile(roundResults, 0.99))}`.padStart(17)}  ${`${f(quantile(roundReads, 0.5))}/${f(quantile(roundReads, 0.99))}`.padStart(15)}`,
      );
    }
  }

  async function roundBoards(round: number): Promise<Board[]> {
    const t = await gql(ROUND, { id });
    return t.rounds.find((r: { round: number }) => r.round === round).boards;
  }

  /**
   * From the stored events: the RoundPaired event's instant (when the service decided the pairing)
   * splits the gap into the wake-up before it and the pairing with its games stored after it.
   */
  async function pairingSplit(round: number, lastResultAt: number, gap: number): Promise<{ wake: number; pair: number }> {
    const t = await gql(`query($id: ID!) { tournament(id: $id) { events(last: 50) { nodes { type payload createdAt } } } }`, { id });
    const paired = t.events.nodes.find((e: { type: string; payload: { round?: number } }) => e.type === 'RoundPaired' && e.payload.round === round);
    if (!paired) return { wake: Number.NaN, pair: Number.NaN };
    const wake = Date.parse(paired.createdAt) - lastResultAt;
    return { wake, pair: gap - wake };
  }
}

await main();
