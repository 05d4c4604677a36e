import { Logger } from '@nestjs/common';
import pg from 'pg';
import { startService, type RunningService } from '../../tools/service.js';
import { loadConfig } from '../../src/config/config.js';
import { DatabaseService } from '../../src/database/database.service.js';
import { createRegistry } from '../../src/games/index.js';
import { MetricsService } from '../../src/ops/metrics.service.js';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { PostgresEventStore } from '../../src/referee/store/postgres-event-store.js';
import { PostgresTournamentStore } from '../../src/referee/store/postgres-tournament-store.js';
import { freePort, gqlAt as gql } from '../support/net.js';
import { tokenDirectory } from '../support/instances.js';
import { ownStorage } from '../support/own-database.js';

/**
 * A service process killed between a scheduled game's GameEnded and the tournament result it
 * implies: after a restart the result is recorded, exactly once, with no read asking for it
 * (the workflows catch up at start-up). On PostgreSQL the kill lands exactly there: the test
 * holds the tournament's row locked, so the result's append waits while the game's end is
 * stored. The embedded database cannot be reached while the service runs: there the game ends
 * in a referee of the test's own on the same data folder, with the service down, which stores
 * what a kill in between leaves.
 */
const TIMEOUT_MS = 300_000;
const CREATE = `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { __typename ... on TournamentCreated { organizerToken tournament { id } } ... on Rejection { code message } } }`;
const REGISTER = `mutation($id: ID!, $name: String!) { registerParticipant(tournamentId: $id, name: $name) { __typename ... on ParticipantRegistered { participantId participantToken } ... on Rejection { code message } } }`;
const PAIR = `mutation($id: ID!) { pairRound(tournamentId: $id) { __typename ... on Tournament { rounds { boards { games { gameId seats { id } } } } } ... on Rejection { code message } } }`;
const RESIGN = `mutation($g: ID!) { resignGame(gameId: $g, moveId: "concede") { __typename } }`;
const STATUS = `query($id: ID!) { tournament(id: $id) { status } }`;

/** POSTs with a bearer token (net.ts's gqlAt sends none). */
async function gqlAs(url: string, token: string, query: string, variables: Record<string, unknown>): Promise<any> {
  const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ query, variables }) });
  return res.json();
}

/** The tournament's stored events, as the REST export reads them (a read: it records nothing). */
async function storedEvents(url: string, id: string): Promise<{ type: string; moveId: string | null }[]> {
  const res = await fetch(`${url}/api/tournaments/${id}/events`);
  return (await res.text())
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

async function until<T>(what: () => Promise<T | null | undefined | false>): Promise<T> {
  for (;;) {
    const value = await what();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

let storage: Awaited<ReturnType<typeof ownStorage>>;
let service: RunningService | null = null;
beforeAll(async () => {
  Logger.overrideLogger(false);
  storage = await ownStorage('tournament-crash');
});
afterAll(async () => {
  if (service && service.process.exitCode === null && service.process.signalCode === null) {
    service.process.kill('SIGTERM');
    await service.exited;
  }
  await storage?.drop();
}, 60_000);

describe('a service killed between a game and its tournament result', () => {
  it(
    'records the result exactly once after the restart, with no read asking for it',
    async () => {
      const { databaseUrl, dataDir } = storage.settings;
      const env: Record<string, string> = databaseUrl ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir! };
      const port = await freePort();
      service = await startService(env, port);
      const { url } = service;
      const created = (await gql(url, CREATE, { input: { kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'SWISS', rounds: 1 } })).data.createTournament;
      const id: string = created.tournament.id;
      const tokens = new Map<string, string>();
      for (const name of ['Ann', 'Bob']) {
        const r = (await gqlAs(url, created.organizerToken, REGISTER, { id, name })).data.registerParticipant;
        tokens.set(r.participantId, r.participantToken);
      }
      const paired = await gqlAs(url, created.organizerToken, PAIR, { id });
      const game = paired.data.pairRound.rounds[0].boards[0].games[0] as { gameId: string; seats: { id: string }[] };
      const loser = tokens.get(game.seats[0].id)!;

      if (databaseUrl) {
        const lock = new pg.Client({ connectionString: databaseUrl });
        const probe = new pg.Client({ connectionString: databaseUrl });
        await Promise.all([lock.connect(), probe.connect()]);
        try {
          await lock.query('BEGIN');
          await lock.query('SELECT 1 FROM tournaments WHERE id = $1 FOR UPDATE', [id]);
          // The move is answered only once its workflow's step is done: that step now waits for the lock.
          const answer = gqlAs(url, loser, RESIGN, { g: game.gameId }).catch(() => null);
          await until(async () => (await probe.query("SELECT 1 FROM events WHERE game_id = $1 AND type = 'GameEnded'", [game.gameId])).rowCount);
          await until(async () => (await probe.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%tournament%'")).rowCount);
          service.process.kill('SIGKILL');
          await service.exited;
          await answer;
          await lock.query('ROLLBACK');
        } finally {
          await Promise.all([lock.end(), probe.end()]);
        }
      } else {
        service.process.kill('SIGKILL');
        await service.exited;
        // The game ends in a referee of this process, which has no tournaments' workflows.
        const db = new DatabaseService(loadConfig({ DATA_DIR: dataDir!, LOG_LEVEL: 'error' }));
        await db.connect();
        try {
          const games = new PostgresEventStore(db);
          const referee = new RefereeService(
            games,
            createRegistry(),
            new MetricsService(),
            undefined,
            undefined,
            undefined,
            undefined,
            undefined,
            undefined,
            tokenDirectory(games, new PostgresTournamentStore(db)),
          );
          expect(await referee.resign(game.gameId, loser, 'concede')).toMatchObject({ accepted: true, status: 'FINISHED' });
        } finally {
          await db.close();
        }
      }

      service = await startService(env, port);
      const events = await until(async () => {
        const stored = await storedEvents(service!.url, id);
        return stored.some((e) => e.type === 'ResultRecorded') && stored;
      });
      expect(events.filter((e) => e.type === 'ResultRecorded').map((e) => e.moveId)).toEqual([`game:${game.gameId}`]);
      expect(events.filter((e) => e.type === 'TournamentFinished')).toHaveLength(1);
      expect((await gql(service.url, STATUS, { id })).data.tournament.status).toBe('FINISHED');
    },
    TIMEOUT_MS,
  );
});
