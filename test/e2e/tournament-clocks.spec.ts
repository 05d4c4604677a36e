import request from 'supertest';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { type TournamentBundle, verifyTournamentBundle } from '../../src/referee/core/tournament/audit.js';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { DeadlineStore } from '../../src/referee/store/deadline-store.js';
import type { TestApp } from '../support/app.js';
import { ManualClock, startAppWithClock } from '../support/clock.js';
import { ownStorage } from '../support/own-database.js';
import { CREATE as CREATE_GAME, EVENTS } from '../support/queries.js';

/**
 * Tournaments with a time control, end to end, time driven by a clock moved by hand: the control
 * is recorded with the tournament and given to every game it pairs (deadline rows included), a
 * game lost on time is the board's result, and the organizer's token acts on its games' clocks. On
 * PostgreSQL the suite has a database of its own: its clock runs days ahead, so on the shared
 * database its ticks would time out other suites' games (see test/e2e/clocks.spec.ts).
 */
const clock = new ManualClock();
let storage: Awaited<ReturnType<typeof ownStorage>>;
let t: TestApp;

beforeAll(async () => {
  storage = await ownStorage('tournament_clocks');
  t = await startAppWithClock(clock, storage.settings);
  // The tests tick the worker themselves, so that each knows when deadlines are acted on.
  await worker().stop();
}, 120_000);
afterAll(async () => {
  await t?.close();
  await storage?.drop();
}, 120_000);

const SECOND = 1000;
const DAY = 86_400 * SECOND;
const worker = () => t.app.get(RefereeService).deadlines!;

const TIME_CONTROL = 'timeControl { kind perMoveSeconds bankCapSeconds vacationSeconds baseSeconds incrementSeconds }';
const CREATE = `mutation($input: CreateTournamentInput!) { createTournament(input: $input) { __typename ... on TournamentCreated { organizerToken tournament { id config ${TIME_CONTROL} } } ... on Rejection { code message } } }`;
const REGISTER = `mutation($id: ID!, $name: String!) { registerParticipant(tournamentId: $id, name: $name) { __typename ... on ParticipantRegistered { participantId participantToken } ... on Rejection { code message } } }`;
const ROUNDS = 'rounds { round complete boards { board games { gameId seats { id } result { source kinds gamePoints ranking } } } }';
const PAIR = `mutation($id: ID!) { pairRound(tournamentId: $id) { __typename ... on Tournament { ${ROUNDS} } ... on Rejection { code message } } }`;
const TOURNAMENT = `query($id: ID!) { tournament(id: $id) { status completedRounds ${ROUNDS} standings { participantId tp }
  events { nodes { seq type payload createdAt } } } }`;
const RECORD = `mutation($id: ID!, $input: ResultInput!) { recordResult(tournamentId: $id, input: $input) { __typename ... on Tournament { version } ... on Rejection { code message } } }`;
const GAME = `query($id: ID!) { game(id: $id) { id status version toAct result tournamentId
  clock { kind running deadline paused pauseRequests timedOut autoPlayed remainingMs } } }`;
const MOVE_RESULT = '__typename ... on MoveAccepted { seat version events { type actor payload } } ... on Rejection { code message }';
const RESIGN = `mutation($g: ID!, $m: String!) { resignGame(gameId: $g, moveId: $m) { ${MOVE_RESULT} } }`;
const ADD_TIME = `mutation($g: ID!, $seat: Int!, $s: Int!) { addTime(gameId: $g, seat: $seat, seconds: $s) { ${MOVE_RESULT} } }`;
const PAUSE = `mutation($g: ID!) { pauseClock(gameId: $g) { ${MOVE_RESULT} } }`;
const RESUME = `mutation($g: ID!) { resumeClock(gameId: $g) { ${MOVE_RESULT} } }`;

/** One day a move, banked up to three: as createGame takes it, and as the events record it. */
const CORRESPONDENCE = { kind: 'CORRESPONDENCE', perMoveSeconds: 86_400, bankCapSeconds: 3 * 86_400 };
const RECORDED = { kind: 'correspondence', perMoveMs: DAY, bankCapMs: 3 * DAY, vacationMs: 0 };
const SWISS = { name: 'Correspondence Swiss', kind: 'backgammon', ruleset: { matchLength: 3 }, format: 'SWISS', rounds: 2 };

interface Game {
  id: string;
  status: string;
  version: number;
  toAct: number[];
  result: { winners: number[] } | null;
  tournamentId: string | null;
  clock: { kind: string; running: number[]; deadline: string | null; paused: boolean; pauseRequests: number[]; timedOut: number[]; autoPlayed: number[]; remainingMs: number[] } | null;
}
interface Round {
  round: number;
  complete: boolean;
  boards: { board: number; games: { gameId: string; seats: { id: string }[]; result: { source: string; kinds: string[]; ranking: number[][] } | null }[] }[];
}

async function gql<T = any>(query: string, variables: Record<string, unknown>, token?: string): Promise<T> {
  const res = await t.gql(query, variables, token);
  if (res.errors) throw new Error(`${res.errors[0].extensions?.code}: ${res.errors[0].message}`);
  return res.data;
}

const game = async (id: string): Promise<Game> => (await gql(GAME, { id })).game;
const events = async (id: string): Promise<{ type: string; actor: number | null; payload: Record<string, any>; createdAt: string }[]> => (await gql(EVENTS, { gameId: id })).gameEvents.nodes;
/** The game's deadline row, once the writes queued so far are stored. */
const deadlineRow = async (id: string) => {
  const rows = t.app.get(DeadlineStore);
  await rows.flushed();
  return rows.get(id);
};

/** A tournament created and filled over the API. */
async function tournament(input: Record<string, unknown>, names: string[]) {
  const created = (await gql(CREATE, { input })).createTournament;
  const id: string = created.tournament.id;
  const organizer: string = created.organizerToken;
  const tokens = new Map<string, string>();
  for (const name of names) {
    const r = (await gql(REGISTER, { id, name }, organizer)).registerParticipant;
    tokens.set(r.participantId, r.participantToken);
  }
  const state = async () =>
    (await gql(TOURNAMENT, { id })).tournament as { status: string; completedRounds: number; rounds: Round[]; standings: { participantId: string; tp: string }[]; events: { nodes: any[] } };
  const pair = async (): Promise<Round> => {
    const rounds = (await gql(PAIR, { id }, organizer)).pairRound.rounds as Round[];
    return rounds[rounds.length - 1];
  };
  return { id, organizer, tokens, created: created.tournament, state, pair };
}

/** The first participant of a game concedes it with its own token. */
async function concede(g: Round['boards'][number]['games'][number], tokens: Map<string, string>): Promise<void> {
  const answer = (await gql(RESIGN, { g: g.gameId, m: `concede-${g.gameId}` }, tokens.get(g.seats[0].id))).resignGame;
  expect(answer.__typename).toBe('MoveAccepted');
}

async function exported(id: string): Promise<TournamentBundle> {
  const res = await request(t.app.getHttpServer()).get(`/api/tournaments/${id}/bundle`);
  expect(res.status).toBe(200);
  return JSON.parse(res.text) as TournamentBundle;
}

describe(`tournaments with a time control (${process.env.TEST_DATABASE_URL ? 'postgresql' : 'pglite'})`, () => {
  it('createTournament refuses an invalid time control as createGame does (INVALID_INPUT), and creates no tournament', async () => {
    const count = async () => (await gql('{ tournaments(first: 100) { nodes { id } } }', {})).tournaments.nodes.length as number;
    const before = await count();
    for (const timeControl of [
      { kind: 'FISCHER' },
      { kind: 'CORRESPONDENCE', perMoveSeconds: 5 },
      { kind: 'CORRESPONDENCE', perMoveSeconds: 86_400, baseSeconds: 60 },
      { kind: 'CORRESPONDENCE', perMoveSeconds: 86_400, bankCapSeconds: 3600 },
    ]) {
      const refused = (await gql(CREATE, { input: { ...SWISS, timeControl } })).createTournament;
      expect(refused).toMatchObject({ __typename: 'Rejection', code: 'INVALID_INPUT' });
      // The same words as createGame's refusal of that time control.
      const game = (await t.gql(CREATE_GAME, { input: { kind: 'backgammon', timeControl } })).data.createGame;
      expect(game).toMatchObject({ __typename: 'Rejection', code: 'INVALID_INPUT' });
      expect(refused.message).toBe(game.message);
    }
    // The suite's database is its own: nothing else creates tournaments in it.
    expect(await count()).toBe(before);
    // NONE is a tournament without a clock, as is no time control at all: nothing is recorded.
    const none = (await gql(CREATE, { input: { ...SWISS, timeControl: { kind: 'NONE' } } })).createTournament.tournament;
    expect(none.timeControl).toBeNull();
    expect(none.config).not.toHaveProperty('timeControl');
  });

  it('a correspondence Swiss: the control is recorded and shown, every paired game has it and its deadline row at once, and a participant who lets time run out loses the match in the standings', async () => {
    const s = await tournament({ ...SWISS, timeControl: CORRESPONDENCE }, ['Ann', 'Bob', 'Cid', 'Dee']);
    const shown = { kind: 'CORRESPONDENCE', perMoveSeconds: 86_400, bankCapSeconds: 3 * 86_400, vacationSeconds: 0, baseSeconds: null, incrementSeconds: null };
    expect(s.created.timeControl).toEqual(shown);
    expect(s.created.config.timeControl).toEqual(RECORDED);
    const rest = await request(t.app.getHttpServer()).get(`/api/tournaments/${s.id}`).expect(200);
    expect(rest.body.timeControl).toEqual(shown);
    // The tournament's own stream records it, stamped with the referee's clock.
    const created = (await s.state()).events.nodes[0];
    expect(created).toMatchObject({ seq: 1, type: 'TournamentCreated', payload: { config: { timeControl: RECORDED } }, createdAt: clock.now().toISOString() });

    const round1 = await s.pair();
    for (const board of round1.boards) {
      const { gameId } = board.games[0];
      expect((await events(gameId))[0]).toMatchObject({ type: 'GameCreated', payload: { timeControl: RECORDED }, createdAt: clock.now().toISOString() });
      const g = await game(gameId);
      expect(g.clock).toMatchObject({ kind: 'CORRESPONDENCE', paused: false, timedOut: [] });
      expect(g.clock!.deadline).toBe(new Date(clock.now().getTime() + DAY).toISOString());
      // The deadline row exists from the pairing on (the worker is stopped: no sweep wrote it).
      const row = await deadlineRow(gameId);
      expect(row).toMatchObject({ seat: g.clock!.running[0], version: g.version });
      expect(row!.dueAt!.toISOString()).toBe(g.clock!.deadline);
    }

    // Board 2 ends by a concession; on board 1 the seat to move lets its day run out.
    const [lost, conceded] = round1.boards.map((b) => b.games[0]);
    await concede(conceded, s.tokens);
    const late = (await game(lost.gameId)).clock!.running[0];
    clock.advance(DAY + SECOND);
    // Counted per game: other games (other suites' too, on a shared database) may fall due with it.
    expect(await worker().tick()).toBeGreaterThanOrEqual(1);
    const ended = await game(lost.gameId);
    expect(ended).toMatchObject({ status: 'FINISHED', result: { winners: [1 - late] } });
    expect((await events(lost.gameId)).filter((e) => e.type === 'TimedOut').map((e) => e.payload)).toEqual([{ seat: late, rule: 'concede' }]);

    const after1 = await s.state();
    expect(after1).toMatchObject({ status: 'RUNNING', completedRounds: 1 });
    const result = after1.rounds[0].boards[0].games[0].result!;
    expect(result).toMatchObject({ source: 'GAME', kinds: ['PLAYED', 'PLAYED'], ranking: [[1 - late], [late]] });
    const tp = (seat: number) => after1.standings.find((r) => r.participantId === lost.seats[seat].id)!.tp;
    expect([tp(late), tp(1 - late)]).toEqual(['0', '1']);

    // Round 2 is paired at the clock's time, its games with the same control; both end by concessions.
    const round2 = await s.pair();
    for (const board of round2.boards) {
      const g = await game(board.games[0].gameId);
      expect(g.clock!.deadline).toBe(new Date(clock.now().getTime() + DAY).toISOString());
      await concede(board.games[0], s.tokens);
    }
    expect((await s.state()).status).toBe('FINISHED');
    // Offline, the games' clocks are re-run from their stamps and every result is its game's own.
    const bundle = await exported(s.id);
    expect(bundle.events[0].payload.config).toMatchObject({ timeControl: RECORDED });
    expect(verifyTournamentBundle(t.app.get(EngineRegistry), bundle)).toMatchObject({ ok: true });
  });

  it("a participant's token acts as its own seat only: it cannot pause a game alone, nor touch another board's game", async () => {
    const s = await tournament({ ...SWISS, name: 'Pauses', rounds: 1, timeControl: CORRESPONDENCE }, ['Eve', 'Fay', 'Gus', 'Hal']);
    const [mine, other] = (await s.pair()).boards.map((b) => b.games[0]);
    const token = s.tokens.get(mine.seats[0].id)!;

    // Its seat asks to pause: the clock runs on until the other seat asks too.
    const asked = (await gql(PAUSE, { g: mine.gameId }, token)).pauseClock;
    expect(asked).toMatchObject({ __typename: 'MoveAccepted', seat: 0, events: [{ type: 'PauseRequested', actor: 0, payload: { seat: 0 } }] });
    expect((await game(mine.gameId)).clock).toMatchObject({ paused: false, pauseRequests: [0] });

    // Another board's game is not its own.
    for (const refused of [
      (await gql(PAUSE, { g: other.gameId }, token)).pauseClock,
      (await gql(RESUME, { g: other.gameId }, token)).resumeClock,
      (await gql(ADD_TIME, { g: other.gameId, seat: 0, s: 3600 }, token)).addTime,
    ])
      expect(refused).toMatchObject({ __typename: 'Rejection', code: 'UNAUTHORIZED' });
    expect((await game(other.gameId)).clock).toMatchObject({ paused: false, pauseRequests: [] });
    expect((await events(other.gameId)).map((e) => e.type)).not.toContain('TimeAdded');

    for (const g of [mine, other]) await concede(g, s.tokens);
    expect((await s.state()).status).toBe('FINISHED');
  });

  it("the organizer's token gives time, pauses and resumes any game of its tournament, as the organizer's; no other organizer's token does", async () => {
    const s = await tournament({ ...SWISS, name: 'Directed', rounds: 1, timeControl: CORRESPONDENCE }, ['Ivy', 'Jon', 'Kim', 'Lee']);
    const [a, b] = (await s.pair()).boards.map((x) => x.games[0]);
    const seatOf = async (gameId: string) => (await game(gameId)).clock!.running[0];
    const [seatA, seatB] = [await seatOf(a.gameId), await seatOf(b.gameId)];

    // Time for a seat of each game, recorded as the organizer's (no actor), answered with seat -1.
    for (const [g, seat] of [
      [a, seatA],
      [b, seatB],
    ] as const) {
      const given = (await gql(ADD_TIME, { g: g.gameId, seat, s: 3600 }, s.organizer)).addTime;
      expect(given).toMatchObject({ __typename: 'MoveAccepted', seat: -1, events: [{ type: 'TimeAdded', actor: null, payload: { seat, ms: 3600 * SECOND, by: 'organizer', vacation: false } }] });
      expect((await game(g.gameId)).clock!.remainingMs[seat]).toBe(DAY + 3600 * SECOND);
    }

    // A pause at once; the seats cannot resume it, the organizer does; time does not run meanwhile.
    const paused = (await gql(PAUSE, { g: a.gameId }, s.organizer)).pauseClock;
    expect(paused).toMatchObject({ __typename: 'MoveAccepted', seat: -1, events: [{ type: 'ClockPaused', actor: null, payload: { by: 'organizer' } }] });
    expect((await game(a.gameId)).clock).toMatchObject({ paused: true, running: [] });
    expect((await gql(RESUME, { g: a.gameId }, s.tokens.get(a.seats[seatA].id))).resumeClock).toMatchObject({ __typename: 'Rejection', code: 'PAUSE_CONFLICT' });
    clock.advance(DAY / 2);
    expect((await game(a.gameId)).clock!.remainingMs[seatA]).toBe(DAY + 3600 * SECOND);
    const resumed = (await gql(RESUME, { g: a.gameId }, s.organizer)).resumeClock;
    expect(resumed).toMatchObject({ __typename: 'MoveAccepted', seat: -1, events: [{ type: 'ClockResumed', actor: null, payload: { by: 'organizer' } }] });
    expect((await game(a.gameId)).clock).toMatchObject({ paused: false, running: [seatA] });

    // Past a seat's deadline (its timeout not recorded yet), the organizer may still give it time.
    clock.set(new Date(Date.parse((await game(b.gameId)).clock!.deadline!) + SECOND));
    expect((await gql(ADD_TIME, { g: b.gameId, seat: seatB, s: 3600 }, s.organizer)).addTime).toMatchObject({ __typename: 'MoveAccepted' });
    await worker().tick();
    expect(await game(b.gameId)).toMatchObject({ status: 'ACTIVE', clock: { timedOut: [] } });

    // Another tournament's organizer, on this tournament's game; this organizer, on a game of no tournament.
    const other = (await gql(CREATE, { input: { ...SWISS, name: 'Elsewhere' } })).createTournament.organizerToken;
    const alone = (await gql(CREATE_GAME, { input: { kind: 'backgammon', timeControl: CORRESPONDENCE } })).createGame.game.id;
    for (const refused of [
      (await gql(ADD_TIME, { g: a.gameId, seat: seatA, s: 60 }, other)).addTime,
      (await gql(PAUSE, { g: a.gameId }, other)).pauseClock,
      (await gql(PAUSE, { g: alone }, s.organizer)).pauseClock,
    ])
      expect(refused).toMatchObject({ __typename: 'Rejection', code: 'UNAUTHORIZED' });

    for (const g of [a, b]) await concede(g, s.tokens);
    expect((await s.state()).status).toBe('FINISHED');
    const bundle = await exported(s.id);
    expect(verifyTournamentBundle(t.app.get(EngineRegistry), bundle)).toMatchObject({ ok: true });
  });

  it('a Cerke round-robin game lost on time is the board result: the seat loses the game', async () => {
    const s = await tournament({ name: 'Cerke on the clock', kind: 'cerke', format: 'ROUND_ROBIN', timeControl: { kind: 'FISCHER', baseSeconds: 600 } }, ['Ia', 'Ka']);
    const { gameId, seats } = (await s.pair()).boards[0].games[0];
    const g = await game(gameId);
    expect(g.clock!.kind).toBe('FISCHER');
    const late = g.clock!.running[0];
    clock.advance(600 * SECOND + 1);
    expect(await worker().tick()).toBeGreaterThanOrEqual(1);
    expect(await game(gameId)).toMatchObject({ status: 'FINISHED', result: { winners: [1 - late] } });
    expect((await events(gameId)).filter((e) => e.type === 'TimedOut').map((e) => e.payload)).toEqual([{ seat: late, rule: 'concede' }]);
    const final = await s.state();
    expect(final.status).toBe('FINISHED');
    expect(final.rounds[0].boards[0].games[0].result).toMatchObject({ source: 'GAME', kinds: ['PLAYED', 'PLAYED'], ranking: [[1 - late], [late]] });
    expect(final.standings.find((r) => r.participantId === seats[late].id)!.tp).toBe('0');
  });

  it('a Chicken Foot table: a seat out of time is auto-played, the table plays on and its result waits for the end', async () => {
    const s = await tournament({ name: 'Chicken Foot on the clock', kind: 'chicken-foot', ruleset: { players: 3 }, format: 'TABLES', rounds: 1, timeControl: CORRESPONDENCE }, ['P1', 'P2', 'P3']);
    const { gameId } = (await s.pair()).boards[0].games[0];
    const late = (await game(gameId)).clock!.running;
    expect(late.length).toBeGreaterThanOrEqual(1);
    clock.advance(DAY + SECOND);
    expect(await worker().tick()).toBeGreaterThanOrEqual(1);
    const log = await events(gameId);
    const timedOut = log.filter((e) => e.type === 'TimedOut').map((e) => e.payload);
    expect(timedOut[0]).toEqual({ seat: late[0], rule: 'autoPlay' });
    expect(timedOut.every((p) => p.rule === 'autoPlay')).toBe(true);
    expect(log.some((e) => e.type === 'ActionTaken' && e.payload.auto === true)).toBe(true);
    expect(await game(gameId)).toMatchObject({ status: 'ACTIVE' });
    const table = (await s.state()).rounds[0];
    expect(table).toMatchObject({ complete: false, boards: [{ games: [{ result: null }] }] });
    // The organizer enters the table's result: the game closes with it.
    await gql(RECORD, { id: s.id, input: { round: 1, board: 1, gamePoints: ['10', '20', '30'] } }, s.organizer);
    expect(await game(gameId)).toMatchObject({ status: 'FINISHED' });
    expect((await s.state()).status).toBe('FINISHED');
  });
});
