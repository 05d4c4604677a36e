import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { eventHash } from '../../src/referee/core/stream.js';
import { type TournamentBundle, verifyTournamentBundle } from '../../src/referee/core/tournament/audit.js';
import { startApp, type TestApp } from '../support/app.js';
import { playOutBackgammon } from '../support/bots.js';

/**
 * Whole tournaments as organizers and players run them, over the public API on a real database:
 * a Swiss whose games bots play to the end, a round-robin with over-the-board results and their
 * records, a knockout, a Chicken Foot table tournament. Each ends with standings, and its bundle
 * verifies offline; an edited event, or a result that is not its game's, is caught at that event.
 */
let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await startApp();
  dir = mkdtempSync(join(tmpdir(), 'arbiter-tournaments-'));
}, 120_000);
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
}, 120_000);

const ROUNDS = `rounds { round complete byes { id name } rest { id }
  boards { board complete winner { id } seats { id name } games { gameId seats { id } result { source kinds gamePoints ranking recordGameId } } } }`;
const CREATE = `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { __typename ... on TournamentCreated { organizerToken tournament { id } } ... on Rejection { code message } } }`;
const REGISTER = `mutation($id: ID!, $name: String!, $rating: Int) { registerParticipant(tournamentId: $id, name: $name, rating: $rating) { __typename ... on ParticipantRegistered { participantId participantToken } ... on Rejection { code message } } }`;
const PAIR = `mutation($id: ID!) { pairRound(tournamentId: $id) { __typename ... on Tournament { ${ROUNDS} } ... on Rejection { code message } } }`;
const WITHDRAW = `mutation($id: ID!, $p: ID!) { withdrawParticipant(tournamentId: $id, participantId: $p, reason: "left the event") { __typename ... on Tournament { participants { id withdrawnAfterRound } } ... on Rejection { code message } } }`;
const RECORD = `mutation($id: ID!, $input: ResultInput!) { recordResult(tournamentId: $id, input: $input) { __typename ... on Tournament { version } ... on Rejection { code message } } }`;
const RESIGN = `mutation($g: ID!, $m: String!) { resignGame(gameId: $g, moveId: $m) { __typename ... on Rejection { code message } } }`;
const TOURNAMENT = `query($id: ID!) { tournament(id: $id) { status seed completedRounds ${ROUNDS}
  standings { rank participantId name tp tieBreaks { name value } } } }`;

interface Board {
  board: number;
  complete: boolean;
  winner: { id: string } | null;
  seats: { id: string; name: string }[];
  games: { gameId: string; seats: { id: string }[]; result: { source: string; kinds: string[]; gamePoints: (string | null)[]; recordGameId: string | null } | null }[];
}
interface Round {
  round: number;
  complete: boolean;
  byes: { id: string; name: string }[];
  rest: { id: string } | null;
  boards: Board[];
}

async function gql<T = any>(query: string, variables: Record<string, unknown>, token?: string): Promise<T> {
  const res = await t.gql(query, variables, token);
  if (res.errors) throw new Error(`${res.errors[0].extensions?.code}: ${res.errors[0].message}`);
  return res.data;
}

/** A tournament created and filled over the API: its id, the organizer's token, each participant's token. */
async function tournament(input: Record<string, unknown>, entrants: [string, number][]) {
  const created = (await gql(CREATE, { input })).createTournament;
  const id: string = created.tournament.id;
  const organizer: string = created.organizerToken;
  const tokens = new Map<string, string>();
  const ids = new Map<string, string>();
  for (const [name, rating] of entrants) {
    const r = (await gql(REGISTER, { id, name, rating }, organizer)).registerParticipant;
    tokens.set(r.participantId, r.participantToken);
    ids.set(name, r.participantId);
  }
  const state = async () => (await gql(TOURNAMENT, { id })).tournament as { status: string; seed: string | null; completedRounds: number; rounds: Round[]; standings: any[] };
  const pair = async () => {
    const rounds = (await gql(PAIR, { id }, organizer)).pairRound.rounds as Round[];
    return rounds[rounds.length - 1];
  };
  return { id, organizer, tokens, ids, state, pair };
}

/** Bots play a game to its end through the API, each seat with its participant's token. */
const playOut = (gameId: string, seats: string[], tokens: Map<string, string>, seed: number) => playOutBackgammon(t.url, gameId, seats, tokens, seed);

/** The bundle as the REST export gives it, and the offline verifier's verdict on it. */
async function exported(id: string): Promise<TournamentBundle> {
  const res = await request(t.app.getHttpServer()).get(`/api/tournaments/${id}/bundle`);
  expect(res.status).toBe(200);
  return JSON.parse(res.text) as TournamentBundle;
}
const verify = (bundle: TournamentBundle) => verifyTournamentBundle(t.app.get(EngineRegistry), bundle);

/** The first game the organizer can't forge: rechain every hash from `index` on, and the head. */
function rechained(bundle: TournamentBundle, index: number): TournamentBundle {
  const events = bundle.events.map((e) => ({ ...e }));
  for (let k = index; k < events.length; k++) {
    if (k > index) events[k].prevHash = events[k - 1].hash;
    events[k].hash = eventHash(bundle.tournament.id, events[k]);
  }
  const last = events[events.length - 1];
  return { ...bundle, events, head: { seq: last.seq, hash: last.hash } };
}

describe('tournaments end to end', () => {
  it('an 8-participant Swiss of 4 rounds of 1-point backgammon matches, played by bots, with a withdrawal after round 2 and a bye', async () => {
    const s = await tournament(
      { name: 'Club Swiss', kind: 'BACKGAMMON'.toLowerCase(), ruleset: { matchLength: 1 }, format: 'SWISS', rounds: 4 },
      ['Ann', 'Bob', 'Cid', 'Dee', 'Eve', 'Fay', 'Gus', 'Hal'].map((n, i) => [n, 2000 - 10 * i]),
    );
    let seed = 1;
    for (let r = 1; r <= 4; r++) {
      if (r === 3) await gql(WITHDRAW, { id: s.id, p: s.ids.get('Hal') }, s.organizer);
      const round = await s.pair();
      // 8 play 4 boards; after Hal's withdrawal 7 remain: 3 boards and a bye.
      expect(round.boards).toHaveLength(r <= 2 ? 4 : 3);
      expect(round.byes).toHaveLength(r <= 2 ? 0 : 1);
      await Promise.all(
        round.boards.map((b) =>
          playOut(
            b.games[0].gameId,
            b.games[0].seats.map((x) => x.id),
            s.tokens,
            seed++,
          ),
        ),
      );
    }
    const final = await s.state();
    expect(final.status).toBe('FINISHED');
    expect(final.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(final.rounds.every((r) => r.complete && r.boards.every((b) => b.games.every((g) => g.result?.source === 'GAME')))).toBe(true);
    const byes = final.rounds.flatMap((r) => r.byes.map((b) => b.name));
    expect(new Set(byes).size).toBe(byes.length);
    expect(byes).not.toContain('Hal');
    expect(final.standings).toHaveLength(8);
    expect(final.standings[0].rank).toBe(1);

    // Offline: the CLI verifies the exported bundle and prints the same standings.
    const bundle = await exported(s.id);
    const file = join(dir, 'swiss.tournament.json');
    writeFileSync(file, JSON.stringify(bundle));
    const cli = spawnSync(process.execPath, ['dist/src/cli/verify.js', file], { encoding: 'utf8' });
    expect(cli.stdout).toMatch(/^VALID: /);
    expect(cli.status).toBe(0);
    for (const row of final.standings) expect(cli.stdout).toContain(`${row.name} (${row.participantId})`);
    const verdict = verify(bundle);
    expect(verdict.ok).toBe(true);
    expect(verdict.standings!.map((r) => [r.participantId, r.rank, r.tp])).toEqual(final.standings.map((r) => [r.participantId, r.rank, r.tp]));

    // An edited event is caught at that event: a result's winner swapped, hashes left as they were…
    const at = bundle.events.findIndex((e) => e.type === 'ResultRecorded');
    const ranking = (bundle.events[at].payload.ranking as number[][])[0][0] === 0 ? [[1], [0]] : [[0], [1]];
    const edited = { ...bundle, events: bundle.events.map((e, i) => (i === at ? { ...e, payload: { ...e.payload, ranking } } : e)) };
    expect(verify(edited)).toMatchObject({ ok: false, badSeq: bundle.events[at].seq });
    // …and with every hash recomputed (a forger's stream), the result no longer is its game's: caught at the same event.
    const forged = rechained({ ...bundle, events: bundle.events.map((e, i) => (i === at ? { ...e, payload: { ...e.payload, ranking } } : e)) }, at);
    const caught = verify(forged);
    expect(caught).toMatchObject({ ok: false, badSeq: bundle.events[at].seq });
    expect(caught.problem).toMatch(/not the game's own outcome/);
    writeFileSync(file, JSON.stringify(forged));
    expect(spawnSync(process.execPath, ['dist/src/cli/verify.js', file], { encoding: 'utf8' }).status).toBe(1);
  }, 600_000);

  it('a 6-participant Cerke round-robin with two over-the-board results entered with their records', async () => {
    const rr = await tournament(
      { name: 'Cerke round-robin', kind: 'cerke', format: 'ROUND_ROBIN' },
      ['Ia', 'Ka', 'Lu', 'Mo', 'Ne', 'Ox'].map((n) => [n, 0]),
    );
    const records = ['case1-2022-05-31', 'case2-2021-11-20'].map((c) => readFileSync(`test/fixtures/cerke/cerke_online_kiaak_parser-${c}.txt`, 'utf8'));
    for (let r = 1; r <= 5; r++) {
      const round = await rr.pair();
      expect(round.boards).toHaveLength(3);
      for (const [i, b] of round.boards.entries()) {
        const game = b.games[0];
        if (r === 1 && i < 2) {
          const record = records[i];
          if (i === 1) {
            // A record that says otherwise than the entry is refused, and nothing changes.
            const refused = await t.gql(RECORD, { id: rr.id, input: { round: r, board: b.board, outcome: 'DRAW', gamePoints: ['20', '20'], record } }, rr.organizer);
            expect(refused.data.recordResult).toMatchObject({ __typename: 'Rejection', code: 'RECORD_DISAGREES' });
          }
          await gql(RECORD, { id: rr.id, input: { round: r, board: b.board, record, reason: 'played over the board' } }, rr.organizer);
        } else {
          // The other games end on the service: seat 1 concedes, with its participant token.
          const answer = (await gql(RESIGN, { g: game.gameId, m: `concede-${r}-${i}` }, rr.tokens.get(game.seats[1].id))).resignGame;
          expect(answer.__typename).toBe('MoveAccepted');
        }
      }
    }
    const final = await rr.state();
    expect(final.status).toBe('FINISHED');
    const otb = final.rounds[0].boards.slice(0, 2).map((b) => b.games[0].result!);
    expect(otb.every((r) => r.source === 'ORGANIZER' && r.recordGameId)).toBe(true);
    expect(final.standings.map((r) => r.tieBreaks.map((b: { name: string }) => b.name))[0]).toEqual(['DE', 'SB', 'WON', 'GP', 'LOTS']);
    const bundle = await exported(rr.id);
    const verdict = verify(bundle);
    expect(verdict.ok).toBe(true);
    // Both records travel with the bundle and verify as games of their own.
    expect(bundle.games.filter((g) => g.game.imported)).toHaveLength(2);
  }, 300_000);

  it('an 8-participant backgammon knockout', async () => {
    const ko = await tournament(
      { name: 'Knockout', kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'KNOCKOUT' },
      ['K1', 'K2', 'K3', 'K4', 'K5', 'K6', 'K7', 'K8'].map((n, i) => [n, 1800 - i]),
    );
    let seed = 100;
    for (const matches of [4, 2, 1]) {
      const round = await ko.pair();
      expect(round.boards).toHaveLength(matches);
      await Promise.all(
        round.boards.map((b) =>
          playOut(
            b.games[0].gameId,
            b.games[0].seats.map((x) => x.id),
            ko.tokens,
            seed++,
          ),
        ),
      );
    }
    const final = await ko.state();
    expect(final.status).toBe('FINISHED');
    const champion = final.rounds[2].boards[0].winner!.id;
    expect(final.standings[0]).toMatchObject({ rank: 1, participantId: champion, tp: null });
    expect(final.standings.map((r) => r.rank)).toEqual([1, 2, 3, 3, 5, 5, 5, 5]);
    expect(verify(await exported(ko.id)).ok).toBe(true);
  }, 300_000);

  it('a 9-participant Chicken Foot table tournament of 3 rounds', async () => {
    const tables = await tournament(
      { name: 'Chicken Foot tables', kind: 'chicken-foot', ruleset: { players: 4 }, format: 'TABLES', rounds: 3 },
      Array.from({ length: 9 }, (_, i) => [`P${i + 1}`, 2000 - 10 * i] as [string, number]),
    );
    const pips = [
      [25, 40, 10],
      [5, 30, 30],
      [12, 12, 50],
    ];
    for (let r = 1; r <= 3; r++) {
      const round = await tables.pair();
      // TA7.3: 9 at tables of 4 are 3 tables of 3, each a 3-player game.
      expect(round.boards.map((b) => b.seats.length)).toEqual([3, 3, 3]);
      for (const [i, b] of round.boards.entries()) {
        const present = r === 3 && i === 2 ? [true, true, false] : [true, true, true];
        const gamePoints = pips[i].map((p, seat) => (present[seat] ? String(p + r) : null));
        await gql(RECORD, { id: tables.id, input: { round: r, board: b.board, gamePoints, present } }, tables.organizer);
      }
      if (r === 1) {
        // A correction is an event with a reason, never an edit: the first table's order is reversed, and the standings follow.
        const first = round.boards[0].seats[0].id;
        const tp = async () => (await tables.state()).standings.find((row) => row.participantId === first).tp;
        expect(await tp()).toBe('1');
        await gql(RECORD, { id: tables.id, input: { round: 1, board: 1, gamePoints: ['1', '40', '10'], correction: true, reason: 'pips miscounted' } }, tables.organizer);
        expect(await tp()).toBe('2');
      }
    }
    const final = await tables.state();
    expect(final.status).toBe('FINISHED');
    expect(final.rounds[2].boards[2].games[0].result!.kinds).toEqual(['PLAYED', 'PLAYED', 'FORFEIT_LOSS']);
    expect(final.standings[0].tieBreaks.map((b: { name: string }) => b.name)).toEqual(['GP', 'WON', 'LOTS']);
    const first = final.rounds[0].boards[0];
    // The scheduled games are closed with the entered result, and are 3-player games.
    const game = (await gql(`query($id: ID!) { game(id: $id) { status tournamentId round board seats { index name taken } } }`, { id: first.games[0].gameId })).game;
    expect(game).toMatchObject({ status: 'FINISHED', tournamentId: tables.id, round: 1, board: 1 });
    // Each seat is its participant's (the participant's token acts as it).
    expect(game.seats).toEqual(first.seats.map((s, index) => ({ index, name: s.name, taken: true })));
    const bundle = await exported(tables.id);
    expect(verify(bundle).ok).toBe(true);
    expect(bundle.events.filter((e) => e.type === 'ResultCorrected').map((e) => e.payload.reason)).toEqual(['pips miscounted']);
  }, 300_000);
});
