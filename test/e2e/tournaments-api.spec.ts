import { createClient } from 'graphql-ws';
import request from 'supertest';
import WebSocket from 'ws';
import { startApp, type TestApp } from '../support/app.js';

/**
 * The tournament API end to end: a 4-participant Swiss of 1-point backgammon matches run over
 * GraphQL by its organizer, results entered over the board, and what REST exports of it
 * (standings as JSON and CSV, games and events as NDJSON, the bundle).
 */
let t: TestApp;
beforeAll(async () => {
  t = await startApp();
}, 120_000);
afterAll(async () => {
  await t?.close();
}, 120_000);

const TOURNAMENT = `id status version seed seedCommitment totalRounds completedRounds games
  participants { id registrationNo name rating entryRound withdrawnAfterRound }
  rounds { round complete warnings byes { id }
    boards { board complete seats { id registrationNo name } games { gameId seats { id } result { source kinds gamePoints ranking recordGameId reason } } } }`;
const CREATE = `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { __typename ... on TournamentCreated { organizerToken tournament { id name kind format status seed config } } ... on Rejection { code message } } }`;
const REGISTER = `mutation($id: ID!, $name: String!, $rating: Int) {
  registerParticipant(tournamentId: $id, name: $name, rating: $rating) { __typename ... on ParticipantRegistered { participantId participantToken tournament { participants { id } } } ... on Rejection { code message } } }`;
const PAIR = `mutation($id: ID!, $round: Int) { pairRound(tournamentId: $id, round: $round) { __typename ... on Tournament { ${TOURNAMENT} } ... on Rejection { code message } } }`;
const RECORD = `mutation($id: ID!, $input: ResultInput!) { recordResult(tournamentId: $id, input: $input) { __typename ... on Tournament { ${TOURNAMENT} } ... on Rejection { code message } } }`;
const FINISH = `mutation($id: ID!) { finishTournament(tournamentId: $id) { __typename ... on Tournament { status } ... on Rejection { code message } } }`;
const FINAL = `query($id: ID!) { tournament(id: $id) { ${TOURNAMENT} standings { rank participantId tp } } }`;
const STANDINGS = `query($id: ID!) { tournament(id: $id) { standings { rank participantId registrationNo name tp tieBreaks { name value } }
  crosstable { participantId cells { round kind seat result tp opponents { id } } } } }`;
const GAME = `query($id: ID!) { game(id: $id) { id status tournamentId result } }`;
const GAMES = `query($filter: GameFilterInput) { games(filter: $filter, first: 100) { nodes { id status tournamentId } } }`;

type Answer = { data?: Record<string, { code?: string } | null> | null; errors?: { extensions?: { code?: string } }[] };
/** Why an answer was refused: a query's error codes, or the code of the Rejection a mutation answered. */
const codes = (res: Answer): (string | undefined)[] => [...(res.errors ?? []).map((e) => e.extensions?.code), ...Object.values(res.data ?? {}).flatMap((v) => (v?.code ? [v.code] : []))];
const ndjson = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
const NAMES = ['Ann', 'Bob', 'Smith, "Ace"', 'Dee'];

let id = '';
let organizer = '';
const players: { participantId: string; participantToken: string }[] = [];
let round1: { board: number; seats: { id: string }[]; games: { gameId: string }[] }[] = [];
/** Answers from before the tournament finished: none may hold its seed. */
const beforeSeedRevealed: string[] = [];

/** tournamentEvents over graphql-ws: what it streams, and how it ends. */
function subscribe(tournamentId: string, afterSeq: number) {
  const client = createClient({ url: `${t.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
  const streamed: { seq: number; type: string }[] = [];
  const refusals: unknown[] = [];
  const done = new Promise<{ completed: boolean; error?: unknown }>((resolve) => {
    client.subscribe(
      {
        query: 'subscription($id: ID!, $afterSeq: Int) { tournamentEvents(tournamentId: $id, afterSeq: $afterSeq) { seq type actor payload createdAt hash prevHash } }',
        variables: { id: tournamentId, afterSeq },
      },
      {
        // A refusal before the stream starts arrives as a result with errors.
        next: (m) => (m.errors ? refusals.push(...m.errors.map((e) => e.extensions?.code)) : streamed.push((m.data as { tournamentEvents: { seq: number; type: string } }).tournamentEvents)),
        error: (error) => resolve({ completed: false, error }),
        complete: () => resolve({ completed: true }),
      },
    );
  });
  return { client, streamed, refusals, done };
}

async function createSwiss(name: string): Promise<{ id: string; organizerToken: string }> {
  const res = await t.gql(CREATE, { input: { name, kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'SWISS', rounds: 2 } });
  expect(res.errors).toBeUndefined();
  return { id: res.data.createTournament.tournament.id, organizerToken: res.data.createTournament.organizerToken };
}

describe('a Swiss tournament over GraphQL', () => {
  it('is created with its recorded configuration and an organizer token; the seed stays secret', async () => {
    const res = await t.gql(CREATE, { input: { name: 'Club night', kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'SWISS', rounds: 2, points: { draw: '1/2' } } });
    expect(res.errors).toBeUndefined();
    const created = res.data.createTournament;
    expect(created.tournament).toMatchObject({ name: 'Club night', kind: 'backgammon', format: 'SWISS', status: 'REGISTERING', seed: null });
    expect(created.tournament.config).toMatchObject({ format: 'swiss', rounds: 2, points: { win: '1', draw: '1/2', loss: '0' }, ruleset: { matchLength: 1 } });
    expect(created.organizerToken).toEqual(expect.any(String));
    id = created.tournament.id;
    organizer = created.organizerToken;
  });

  it('registers four participants with the organizer token', async () => {
    for (const [i, name] of NAMES.entries()) {
      const res = await t.gql(REGISTER, { id, name, rating: 1500 - i * 10 }, organizer);
      expect(res.errors).toBeUndefined();
      players.push({ participantId: res.data.registerParticipant.participantId, participantToken: res.data.registerParticipant.participantToken });
    }
    expect(new Set(players.map((p) => p.participantToken)).size).toBe(4);
    const res = await t.gql(`query($id: ID!) { tournament(id: $id) { participants { id registrationNo name rating entryRound withdrawnAfterRound } } }`, { id });
    expect(res.data.tournament.participants).toEqual(
      players.map((p, i) => ({ id: p.participantId, registrationNo: i + 1, name: NAMES[i], rating: 1500 - i * 10, entryRound: 1, withdrawnAfterRound: null })),
    );
  });

  it("refuses to pair for a participant (FORBIDDEN), another tournament's participant (NOT_IN_TOURNAMENT) and no token (UNAUTHORIZED)", async () => {
    expect(codes(await t.gql(PAIR, { id }, players[0].participantToken))).toEqual(['FORBIDDEN']);
    const other = await createSwiss('Another night');
    const stranger = await t.gql(REGISTER, { id: other.id, name: 'Eve' }, other.organizerToken);
    expect(codes(await t.gql(PAIR, { id }, stranger.data.registerParticipant.participantToken))).toEqual(['NOT_IN_TOURNAMENT']);
    expect(codes(await t.gql(PAIR, { id }))).toEqual(['UNAUTHORIZED']);
    expect(codes(await t.gql(PAIR, { id: 't-nosuchtournament' }, organizer))).toEqual(['NOT_FOUND']);
  });

  it('pairs round 1 into two boards of one scheduled game each; pairing again waits for the results', async () => {
    const res = await t.gql(PAIR, { id, round: 1 }, organizer);
    expect(res.errors).toBeUndefined();
    const paired = res.data.pairRound;
    expect(paired).toMatchObject({ status: 'RUNNING', totalRounds: 2, completedRounds: 0 });
    expect(paired.rounds).toHaveLength(1);
    round1 = paired.rounds[0].boards;
    expect(round1.map((b) => b.board)).toEqual([1, 2]);
    for (const b of paired.rounds[0].boards) {
      expect(b.complete).toBe(false);
      expect(b.games).toHaveLength(1);
      expect(b.games[0].result).toBeNull();
      expect(b.games[0].seats.map((s: { id: string }) => s.id)).toEqual(b.seats.map((s: { id: string }) => s.id));
    }
    expect(paired.games.sort()).toEqual(round1.map((b) => b.games[0].gameId).sort());
    expect(codes(await t.gql(PAIR, { id }, organizer))).toEqual(['ROUND_NOT_FINISHED']);
  });

  it('is listed by tournaments, newest first, a page at a time (Relay cursor connection)', async () => {
    const res = await t.gql(`query { tournaments(first: 100) { edges { cursor node { id name kind format status createdAt } } pageInfo { startCursor endCursor hasNextPage hasPreviousPage } } }`);
    expect(res.errors).toBeUndefined();
    const listed = res.data.tournaments.edges.map((e: { node: unknown }) => e.node);
    expect(listed.find((x: { id: string }) => x.id === id)).toEqual({ id, name: 'Club night', kind: 'backgammon', format: 'SWISS', status: 'RUNNING', createdAt: expect.any(String) });
    const times = listed.map((x: { createdAt: string }) => Date.parse(x.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // Other suites may share the database (PostgreSQL): more may follow the page, and newer ones may come while it is read.
    const { edges, pageInfo } = res.data.tournaments;
    const rest = (await t.gql(`query($after: String) { tournaments(first: 1, after: $after) { nodes { id } } }`, { after: pageInfo.endCursor })).data.tournaments;
    expect(pageInfo).toEqual({ startCursor: edges[0].cursor, endCursor: edges.at(-1).cursor, hasNextPage: rest.nodes.length > 0, hasPreviousPage: false });

    // One tournament a page: the page after a tournament's cursor is the next older one, and says whether more follow.
    const PAGE = `query($after: String) { tournaments(first: 1, after: $after) { nodes { id createdAt } pageInfo { endCursor hasNextPage } } }`;
    const first = (await t.gql(PAGE, {})).data.tournaments;
    expect(Date.parse(first.nodes[0].createdAt)).toBeGreaterThanOrEqual(times[0]);
    const next = (await t.gql(PAGE, { after: edges[0].cursor })).data.tournaments;
    expect(next.nodes.map((n: { id: string }) => n.id)).toEqual(listed.slice(1, 2).map((x: { id: string }) => x.id));
    expect(next.pageInfo.hasNextPage).toBe(listed.length > 2 || pageInfo.hasNextPage);
    expect(codes(await t.gql(PAGE, { after: 'not a cursor' }))).toEqual(['INVALID_INPUT']);
  });

  it('lists its games with games(filter: {tournamentId}), and by round', async () => {
    const listed = await t.gql(GAMES, { filter: { tournamentId: id } });
    expect(listed.errors).toBeUndefined();
    expect(listed.data.games.nodes.map((g: { id: string }) => g.id).sort()).toEqual(round1.map((b) => b.games[0].gameId).sort());
    expect(listed.data.games.nodes.every((g: { tournamentId: string }) => g.tournamentId === id)).toBe(true);
    expect((await t.gql(GAMES, { filter: { tournamentId: id, round: 1 } })).data.games.nodes).toHaveLength(2);
    expect((await t.gql(GAMES, { filter: { tournamentId: id, round: 2 } })).data.games.nodes).toHaveLength(0);
    expect(codes(await t.gql(GAMES, { filter: { tournamentId: 'not a tournament' } }))).toEqual(['INVALID_INPUT']);
  });

  it('records over-the-board results, which close the scheduled games; a second result for a game is refused', async () => {
    let version = 0;
    for (const b of round1) {
      const res = await t.gql(RECORD, { id, input: { round: 1, board: b.board, outcome: 'WIN_SEAT0', gamePoints: ['1', '0'] } }, organizer);
      expect(res.errors).toBeUndefined();
      const board = res.data.recordResult.rounds[0].boards.find((x: { board: number }) => x.board === b.board);
      expect(board.complete).toBe(true);
      expect(board.games[0].result).toEqual({ source: 'ORGANIZER', kinds: ['PLAYED', 'PLAYED'], gamePoints: ['1', '0'], ranking: [[0], [1]], recordGameId: null, reason: null });
      version = res.data.recordResult.version;
    }
    for (const b of round1) {
      const game = await t.gql(GAME, { id: b.games[0].gameId });
      expect(game.errors).toBeUndefined();
      expect(game.data.game).toMatchObject({ status: 'FINISHED', tournamentId: id });
    }
    const gameId = round1[0].games[0].gameId;
    // The same entry again is a retry (its command id derives from it): the tournament as it is.
    const retry = await t.gql(RECORD, { id, input: { round: 1, board: round1[0].board, outcome: 'WIN_SEAT0', gamePoints: ['1', '0'] } }, organizer);
    expect(retry.data.recordResult.version).toBe(version);
    const second = await t.gql(RECORD, { id, input: { round: 1, board: round1[0].board, gameId, outcome: 'WIN_SEAT1', gamePoints: ['0', '1'] } }, organizer);
    expect(codes(second)).toEqual(['RESULT_ALREADY_RECORDED']);
  });

  it('refuses to finish for a participant once the round is complete (FORBIDDEN): nothing is stored, the seed stays secret', async () => {
    const before = (await t.gql(FINAL, { id })).data.tournament;
    expect(codes(await t.gql(FINISH, { id }, players[0].participantToken))).toEqual(['FORBIDDEN']);
    const after = (await t.gql(FINAL, { id })).data.tournament;
    expect(after).toMatchObject({ status: 'RUNNING', version: before.version, seed: null });
  });

  it('answers standings and a crosstable after the completed round', async () => {
    const res = await t.gql(STANDINGS, { id });
    expect(res.errors).toBeUndefined();
    const { standings, crosstable } = res.data.tournament;
    expect(standings).toHaveLength(4);
    const winners = new Set(round1.map((b) => b.seats[0].id));
    for (const row of standings) {
      expect(row.tp).toBe(winners.has(row.participantId) ? '1' : '0');
      expect(row.tieBreaks.map((b: { name: string }) => b.name)).toEqual(['BH-C1', 'BH', 'SB', 'WON', 'GP', 'LOTS']);
    }
    expect(standings.slice(0, 2).every((r: { participantId: string }) => winners.has(r.participantId))).toBe(true);
    expect(crosstable).toHaveLength(4);
    for (const row of crosstable) {
      expect(row.cells).toHaveLength(1);
      expect(row.cells[0]).toMatchObject({ round: 1, kind: 'PLAYED', result: winners.has(row.participantId) ? 'WIN' : 'LOSS' });
    }
    expect(codes(await t.gql(`query($id: ID!) { tournament(id: $id) { standings(afterRound: 2) { rank } } }`, { id }))).toEqual(['INVALID_INPUT']);
  });
});

describe('the REST exports', () => {
  it('GET /api/tournaments/:id: the tournament as JSON, with standings and crosstable', async () => {
    const res = await request(t.app.getHttpServer()).get(`/api/tournaments/${id}`).expect(200);
    beforeSeedRevealed.push(res.text);
    expect(res.body).toMatchObject({ id, name: 'Club night', format: 'SWISS', status: 'RUNNING', seed: null, totalRounds: 2, completedRounds: 1 });
    expect(res.body.participants).toHaveLength(4);
    expect(res.body.rounds[0].boards).toHaveLength(2);
    expect(res.body.standings).toHaveLength(4);
    expect(res.body.crosstable).toHaveLength(4);
    expect(res.body.games).toHaveLength(2);
    expect(res.body).not.toHaveProperty('live');
    const missing = await request(t.app.getHttpServer()).get('/api/tournaments/t-nosuchtournament').expect(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    await request(t.app.getHttpServer()).get('/api/tournaments/nonsense').expect(404);
  });

  it('GET /api/tournaments/:id/standings: JSON, and CSV by ?format=csv or Accept: text/csv', async () => {
    const server = t.app.getHttpServer();
    const json = await request(server).get(`/api/tournaments/${id}/standings`).expect(200);
    expect(json.body.afterRound).toBe(1);
    expect(json.body.rows).toHaveLength(4);
    expect((await request(server).get(`/api/tournaments/${id}/standings?afterRound=0`).expect(200)).body.rows.every((r: { tp: string }) => r.tp === '0')).toBe(true);
    expect((await request(server).get(`/api/tournaments/${id}/standings?afterRound=-1`).expect(400)).body.error.code).toBe('INVALID_INPUT');

    const csv = await request(server).get(`/api/tournaments/${id}/standings?format=csv`).expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.text.split('\r\n');
    expect(lines[0]).toBe('rank,registrationNo,name,tp,BH-C1,BH,SB,WON,GP,LOTS');
    expect(lines).toHaveLength(6);
    expect(lines[5]).toBe('');
    // RFC 4180: the name with a comma and quotes is quoted, its quotes doubled.
    expect(lines.find((l) => l.includes('Smith'))).toMatch(/^\d,3,"Smith, ""Ace""",[01],/);
    for (const row of json.body.rows) {
      const registrationNo = row.registrationNo;
      const line = lines.find((l) => l.split(',')[1] === String(registrationNo))!;
      expect(line.startsWith(`${row.rank},${registrationNo},`)).toBe(true);
      expect(line.endsWith(`,${row.tp},${row.tieBreaks.map((b: { value: string | null }) => b.value ?? '').join(',')}`)).toBe(true);
    }
    const accepted = await request(server).get(`/api/tournaments/${id}/standings`).set('accept', 'text/csv').expect(200);
    expect(accepted.text).toBe(csv.text);
  });

  it('GET /api/tournaments/:id/games: NDJSON, one scheduled game a line', async () => {
    const res = await request(t.app.getHttpServer()).get(`/api/tournaments/${id}/games`).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const games = ndjson(res.text);
    expect(games).toHaveLength(2);
    for (const [i, g] of games.entries()) {
      expect(g).toMatchObject({ gameId: round1[i].games[0].gameId, round: 1, board: round1[i].board, status: 'FINISHED', result: { source: 'ORGANIZER', kinds: ['PLAYED', 'PLAYED'] } });
      expect(g.seats).toHaveLength(2);
      expect(Object.keys(g.seats[0]).sort()).toEqual(['name', 'participantId']);
    }
  });

  it('GET /api/tournaments/:id/events: NDJSON of the stored events', async () => {
    const res = await request(t.app.getHttpServer()).get(`/api/tournaments/${id}/events`).expect(200);
    beforeSeedRevealed.push(res.text);
    const events = ndjson(res.text);
    expect(events[0].type).toBe('TournamentCreated');
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(ndjson((await request(t.app.getHttpServer()).get(`/api/tournaments/${id}/events?afterSeq=2`).expect(200)).text)[0].seq).toBe(3);
  });

  it('GET /api/tournaments/:id/bundle: the bundle as a download', async () => {
    const res = await request(t.app.getHttpServer()).get(`/api/tournaments/${id}/bundle`).expect(200);
    beforeSeedRevealed.push(res.text);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${id}.tournament.json"`);
    expect(res.body).toMatchObject({ format: 'arbiter-tournament-bundle/1', tournament: { id, status: 'RUNNING', seed: null } });
    expect(res.body.games).toHaveLength(2);
    expect(res.body.head.seq).toBe(res.body.events.length);
  });
});

describe('to the end', () => {
  it('streams its events over graphql-ws until TournamentFinished, through round 2 and the finish; the seed is revealed only then', async () => {
    const { client, streamed, refusals, done } = subscribe(id, 2);
    try {
      const paired = await t.gql(PAIR, { id }, organizer);
      expect(paired.errors).toBeUndefined();
      for (const b of paired.data.pairRound.rounds[1].boards) {
        const res = await t.gql(RECORD, { id, input: { round: 2, board: b.board, outcome: 'WIN_SEAT1', gamePoints: ['0', '1'] } }, organizer);
        expect(res.errors).toBeUndefined();
      }
      // The last round's last result finishes the tournament by itself: nothing is left to finish.
      expect(codes(await t.gql(FINISH, { id }, organizer))).toEqual(['TOURNAMENT_FINISHED']);
      const res = await t.gql(FINAL, { id });
      expect(res.errors).toBeUndefined();
      const final = res.data.tournament;
      expect(final).toMatchObject({ status: 'FINISHED', completedRounds: 2 });
      expect(final.standings.map((r: { tp: string }) => r.tp).sort()).toEqual(['0', '1', '1', '2']);
      expect(final.seed).toMatch(/^[0-9a-f]{64}$/);
      for (const text of beforeSeedRevealed) expect(text).not.toContain(final.seed);
      expect(await done).toEqual({ completed: true });
      expect(refusals).toEqual([]);
      expect(streamed.map((e) => e.seq)).toEqual(Array.from({ length: final.version - 2 }, (_, i) => i + 3));
      expect(streamed.at(-1)!.type).toBe('TournamentFinished');
    } finally {
      await client.dispose();
    }
  });

  it('completes at once for a subscription resumed after the end, and refuses an unknown tournament', async () => {
    const version = (await t.gql(`query($id: ID!) { tournament(id: $id) { version } }`, { id })).data.tournament.version;
    const after = subscribe(id, version);
    const unknown = subscribe('t-nosuchtournament', 0);
    try {
      expect(await after.done).toEqual({ completed: true });
      expect(after.streamed).toEqual([]);
      await unknown.done;
      expect(unknown.refusals).toEqual(['NOT_FOUND']);
      expect(unknown.streamed).toEqual([]);
    } finally {
      await after.client.dispose();
      await unknown.client.dispose();
    }
  });
});
