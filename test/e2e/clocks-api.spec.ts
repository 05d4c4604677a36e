import request from 'supertest';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import type { TestApp } from '../support/app.js';
import { ManualClock, startAppWithClock } from '../support/clock.js';
import { ownStorage } from '../support/own-database.js';
import { ACT } from '../support/queries.js';

/**
 * The clock beyond createGame and Game.clock: each game's typed create takes a time control, each
 * game's typed state answers the same clock (a past state's as it stood then), the REST game
 * answers it in the same shape, as the OpenAPI document describes it, and the record of a game
 * lost on time says so where its format can. Time is a hand-moved clock; on PostgreSQL the suite
 * has a database of its own, as test/e2e/clocks.spec.ts (which says why).
 */
const clock = new ManualClock();
let storage: Awaited<ReturnType<typeof ownStorage>>;
let t: TestApp;

beforeAll(async () => {
  storage = await ownStorage('clocks_api');
  t = await startAppWithClock(clock, storage.settings);
  // Timeouts happen when a test ticks the worker.
  await worker().stop();
});
afterAll(async () => {
  await t?.close();
  await storage?.drop();
});

const SECOND = 1000;
const worker = () => t.app.get(RefereeService).deadlines!;

const CLOCK = `clock { kind remainingMs running deadline paused pauseRequests timedOut autoPlayed vacationLeftMs
  control { kind perMoveSeconds bankCapSeconds vacationSeconds baseSeconds incrementSeconds } }`;
/** Game.clock, the typed state's clock (as Game.state) and the game's own typed query's, with the game. */
const CLOCKS = `query($id: ID!) { game(id: $id) {
  id kind status version toAct legalActions outcome { winners } ${CLOCK}
  state { ... on BackgammonPosition { ${CLOCK} } ... on CerkeState { ${CLOCK} } ... on ChickenFootTable { ${CLOCK} } }
} }`;
const OWN_QUERY: Record<string, string> = {
  backgammon: `query($id: ID!) { own: backgammonPosition(gameId: $id) { ${CLOCK} } }`,
  cerke: `query($id: ID!) { own: cerkeState(gameId: $id) { ${CLOCK} } }`,
  'chicken-foot': `query($id: ID!) { own: chickenFootTable(gameId: $id) { ${CLOCK} } }`,
};
const CREATED = `__typename ... on GameCreated { game { id } tokens { token } } ... on Rejection { code message }`;
const TYPED_CREATE: Record<string, string> = {
  backgammon: `mutation($input: BackgammonGameInput!) { created: createBackgammonGame(input: $input) { ${CREATED} } }`,
  cerke: `mutation($input: CerkeGameInput!) { created: createCerkeGame(input: $input) { ${CREATED} } }`,
  'chicken-foot': `mutation($input: ChickenFootGameInput!) { created: createChickenFootGame(input: $input) { ${CREATED} } }`,
};

interface Clock {
  kind: string;
  remainingMs: number[];
  running: number[];
  deadline: string | null;
  timedOut: number[];
  autoPlayed: number[];
  control: Record<string, unknown>;
}
interface Clocked {
  id: string;
  kind: string;
  status: string;
  version: number;
  toAct: number[];
  legalActions: { type: string }[];
  outcome: { winners: number[] } | null;
  clock: Clock | null;
  state: { clock: Clock | null };
}

async function createTyped(kind: string, input: Record<string, unknown>): Promise<{ id: string; tokens: string[] }> {
  const created = (await t.gql(TYPED_CREATE[kind], { input })).data?.created;
  if (created?.__typename !== 'GameCreated') throw new Error(`create ${kind}: ${JSON.stringify(created)}`);
  return { id: created.game.id, tokens: created.tokens.map((x: { token: string }) => x.token) };
}

const game = async (id: string, token?: string): Promise<Clocked> => (await t.gql(CLOCKS, { id }, token)).data.game;
const ownClock = async (kind: string, id: string): Promise<Clock | null> => (await t.gql(OWN_QUERY[kind], { id })).data.own.clock;

let moveNo = 0;
/** The seat to act plays its first legal action but a resignation or a double. */
async function playOne(id: string, tokens: string[]): Promise<void> {
  const seat = (await game(id)).toAct[0];
  const mine = await game(id, tokens[seat]);
  const action = mine.legalActions.find((a) => a.type !== 'resign' && a.type !== 'double') ?? mine.legalActions[0];
  const res = await t.gql(ACT, { gameId: id, moveId: `m${moveNo++}`, action, expectedVersion: mine.version }, tokens[seat]);
  if (res.data?.submitAction?.__typename !== 'MoveAccepted') throw new Error(`move refused: ${JSON.stringify(res)}`);
}

const IMPORT = `mutation($k: String!, $r: String!) { importGame(kind: $k, record: $r) {
  __typename ... on GameCreated { game { status outcome { winners } } } ... on Rejection { message } } }`;

/** Imports a record: the new game's status and winners. */
async function imported(kind: string, record: string): Promise<{ status: string; winners: number[] | undefined }> {
  const created = (await t.gql(IMPORT, { k: kind, r: record })).data.importGame;
  if (created.__typename !== 'GameCreated') throw new Error(`import: ${JSON.stringify(created)}`);
  return { status: created.game.status, winners: created.game.outcome?.winners };
}

const record = async (id: string): Promise<string> => (await request(t.app.getHttpServer()).get(`/api/games/${id}/record`).expect(200)).text;

describe(`the clock in the typed API, over REST and in records (${process.env.TEST_DATABASE_URL ? 'postgresql' : 'pglite'})`, () => {
  const typed: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['backgammon', { ruleset: { matchLength: 3 } }, { kind: 'CORRESPONDENCE', perMoveSeconds: 86_400, bankCapSeconds: 259_200, vacationSeconds: 604_800 }],
    ['cerke', { ruleset: { profile: 'STRICT' } }, { kind: 'FISCHER', baseSeconds: 600, incrementSeconds: 10 }],
    ['chicken-foot', { ruleset: { players: 3, setMax: 6, handSize: 5 } }, { kind: 'FISCHER', baseSeconds: 300 }],
  ];
  for (const [kind, input, timeControl] of typed) {
    it(`${kind}: the typed create takes a time control; the typed state and the game's own query answer Game.clock`, async () => {
      const { id } = await createTyped(kind, { ...input, timeControl });
      const start = await game(id);
      expect(start.kind).toBe(kind);
      const { kind: clockKind, ...fields } = timeControl;
      expect(start.clock).toMatchObject({ kind: clockKind, control: { kind: clockKind, ...fields }, running: start.toAct, timedOut: [], autoPlayed: [] });
      expect(start.state.clock).toEqual(start.clock);
      expect(await ownClock(kind, id)).toEqual(start.clock);
      // As of each request: the seat to act spends its time in every view alike.
      clock.advance(5 * SECOND);
      const later = await game(id);
      const seat = start.clock!.running[0];
      expect(later.clock!.remainingMs[seat]).toBe(start.clock!.remainingMs[seat] - 5 * SECOND);
      expect(later.state.clock).toEqual(later.clock);
      expect(await ownClock(kind, id)).toEqual(later.clock);

      // Without a time control, none; an invalid one is refused, nothing created.
      const plain = await createTyped(kind, input);
      expect((await game(plain.id)).state.clock).toBeNull();
      expect(await ownClock(kind, plain.id)).toBeNull();
      const refused = (await t.gql(TYPED_CREATE[kind], { input: { ...input, timeControl: { kind: 'FISCHER', perMoveSeconds: 60 } } })).data.created;
      expect(refused).toMatchObject({ __typename: 'Rejection', code: 'INVALID_INPUT', message: expect.stringMatching(/no "perMoveSeconds"/) });
    });
  }

  it("a state of the game's past (gameStateAt) tells the clocks as they stood at its last event", async () => {
    const { id, tokens } = await createTyped('backgammon', { timeControl: { kind: 'FISCHER', baseSeconds: 120, incrementSeconds: 2 } });
    const then = await game(id);
    const seat = then.clock!.running[0];
    clock.advance(30 * SECOND);
    await playOne(id, tokens);
    clock.advance(45 * SECOND);
    const PAST = `query($id: ID!, $seq: Int!) { gameStateAt(gameId: $id, seq: $seq) { state { ... on BackgammonPosition { version ${CLOCK} } } } }`;
    const past = (await t.gql(PAST, { id, seq: then.version })).data.gameStateAt.state;
    expect(past.version).toBe(then.version);
    // The clocks as the state's last event left them: nothing spent since.
    expect(past.clock).toEqual({ ...then.clock, remainingMs: [120_000, 120_000] });
    const now = await game(id);
    expect(now.clock!.remainingMs[seat]).toBe(120_000 - 30_000 + 2000);
    // The game's own current state is as of now, in a snapshot too.
    const current = (await t.gql(PAST, { id, seq: now.version })).data.gameStateAt.state;
    expect(current.clock).toEqual(now.clock);
  });

  it('GET /api/games/:id answers the clock in the shape of Game.clock, as the OpenAPI document describes it', async () => {
    const { id, tokens } = await createTyped('backgammon', { timeControl: { kind: 'CORRESPONDENCE', perMoveSeconds: 86_400, vacationSeconds: 86_400 } });
    clock.advance(3600 * SECOND);
    const rest = (await request(t.app.getHttpServer()).get(`/api/games/${id}`).set('authorization', `Bearer ${tokens[0]}`).expect(200)).body;
    const graphql = (await t.gql(`query($id: ID!) { game(id: $id) { ${CLOCK} } }`, { id })).data.game.clock;
    expect(rest.clock).toEqual(graphql);
    expect(rest.clock.remainingMs).toContain(86_400_000 - 3600_000);

    // The document names exactly these fields, and GraphQL's GameClock has the same.
    const doc = (await request(t.app.getHttpServer()).get('/api/openapi.json').expect(200)).body;
    const { GameClock, TimeControl, GameDetail } = doc.components.schemas;
    expect(GameDetail.required).toContain('clock');
    expect(Object.keys(rest.clock).sort()).toEqual([...GameClock.required].sort());
    expect(Object.keys(GameClock.properties).sort()).toEqual([...GameClock.required].sort());
    expect(Object.keys(rest.clock.control).sort()).toEqual([...TimeControl.required].sort());
    const fields = async (type: string) => (await t.gql(`{ __type(name: "${type}") { fields { name } } }`)).data.__type.fields.map((f: { name: string }) => f.name).sort();
    expect(await fields('GameClock')).toEqual([...GameClock.required].sort());
    expect(await fields('TimeControl')).toEqual([...TimeControl.required].sort());

    const plain = await createTyped('backgammon', {});
    expect((await request(t.app.getHttpServer()).get(`/api/games/${plain.id}`).expect(200)).body.clock).toBeNull();
  });

  it('every clock event has a typed detail in GameEvent.detail: time added, pause and resume asked and granted, a timeout', async () => {
    const { id, tokens } = await createTyped('backgammon', { timeControl: { kind: 'CORRESPONDENCE', perMoveSeconds: 86_400, vacationSeconds: 2 * 86_400 } });
    const seat = (await game(id)).clock!.running[0];
    const clockCommand = async (mutation: string, token: string) => {
      const answer = (await t.gql(`mutation($id: ID!) { r: ${mutation} { __typename } }`, { id }, token)).data.r;
      expect(answer.__typename).toBe('MoveAccepted');
    };
    await clockCommand(`addTime(gameId: $id, seat: ${seat}, seconds: 86400, vacation: true)`, tokens[seat]);
    await clockCommand(`addTime(gameId: $id, seat: ${seat}, seconds: 60)`, tokens[1 - seat]);
    for (const mutation of ['pauseClock(gameId: $id)', 'resumeClock(gameId: $id)']) for (const by of [0, 1]) await clockCommand(mutation, tokens[by]);
    clock.advance(5 * 86_400 * SECOND);
    expect(await worker().tick()).toBeGreaterThanOrEqual(1);

    const DETAILS = `query($id: ID!) { gameEvents(gameId: $id) { nodes { type detail {
      __typename
      ... on TimeAddedDetail { seat ms bySeat vacation }
      ... on PauseRequestedDetail { seat }
      ... on ResumeRequestedDetail { seat }
      ... on ClockPausedDetail { by }
      ... on ClockResumedDetail { by }
      ... on TimedOutDetail { seat rule }
    } } } }`;
    const clockEvents = (await t.gql(DETAILS, { id })).data.gameEvents.nodes.filter((e: { type: string }) => /Time|Pause|Resume|Clock/.test(e.type));
    expect(clockEvents).toEqual([
      { type: 'TimeAdded', detail: { __typename: 'TimeAddedDetail', seat, ms: 86_400 * SECOND, bySeat: seat, vacation: true } },
      { type: 'TimeAdded', detail: { __typename: 'TimeAddedDetail', seat, ms: 60 * SECOND, bySeat: 1 - seat, vacation: false } },
      { type: 'PauseRequested', detail: { __typename: 'PauseRequestedDetail', seat: 0 } },
      { type: 'PauseRequested', detail: { __typename: 'PauseRequestedDetail', seat: 1 } },
      { type: 'ClockPaused', detail: { __typename: 'ClockPausedDetail', by: 'seats' } },
      { type: 'ResumeRequested', detail: { __typename: 'ResumeRequestedDetail', seat: 0 } },
      { type: 'ResumeRequested', detail: { __typename: 'ResumeRequestedDetail', seat: 1 } },
      { type: 'ClockResumed', detail: { __typename: 'ClockResumedDetail', by: 'seats' } },
      { type: 'TimedOut', detail: { __typename: 'TimedOutDetail', seat, rule: 'concede' } },
    ]);
  });

  it('backgammon won on time: the .mat says so in a comment line and ends with the forfeit, and imports as that concession', async () => {
    const { id } = await createTyped('backgammon', { ruleset: { matchLength: 5 }, seats: [{ name: 'Ann' }, { name: 'Bob' }], timeControl: { kind: 'FISCHER', baseSeconds: 60 } });
    const late = (await game(id)).clock!.running[0];
    clock.advance(61 * SECOND);
    expect(await worker().tick()).toBeGreaterThanOrEqual(1);
    const over = await game(id);
    expect(over).toMatchObject({ status: 'FINISHED', outcome: { winners: [1 - late] }, clock: { timedOut: [late] } });
    const mat = await record(id);
    expect(mat.split('\n')[0]).toBe(`; ${['Ann', 'Bob'][1 - late]} wins on time: .mat has no clock, so the match ends as conceded by forfeit`);
    expect(mat).toMatch(/Wins 5 points by forfeit/);
    expect(await imported('backgammon', mat)).toEqual({ status: 'FINISHED', winners: [1 - late] });
  });

  it('Cerke lost on time: the record ends with the {切れ負け:…} tag, and imports as that concession', async () => {
    const { id } = await createTyped('cerke', { timeControl: { kind: 'FISCHER', baseSeconds: 30 } });
    const late = (await game(id)).clock!.running[0];
    clock.advance(31 * SECOND);
    expect(await worker().tick()).toBeGreaterThanOrEqual(1);
    expect(await game(id)).toMatchObject({ status: 'FINISHED', outcome: { winners: [1 - late] } });
    const text = await record(id);
    expect(text).toContain(`{切れ負け:${late === 0 ? '黒' : '赤'}}`);
    expect(text).not.toContain('投了');
    expect(await imported('cerke', text)).toEqual({ status: 'FINISHED', winners: [1 - late] });
  });

  it('Chicken Foot forfeited on time: the record closes with resignGame marked "timedOut", and imports as that concession', async () => {
    const { id } = await createTyped('chicken-foot', { ruleset: { players: 2, setMax: 6, handSize: 5, overrides: { onTimeout: 'forfeit' } }, timeControl: { kind: 'FISCHER', baseSeconds: 60 } });
    const late = (await game(id)).clock!.running[0];
    clock.advance(61 * SECOND);
    expect(await worker().tick()).toBeGreaterThanOrEqual(1);
    const over = await game(id);
    expect(over.status).toBe('FINISHED');
    const text = await record(id);
    expect(JSON.parse(text).rounds.at(-1).actions.at(-1)).toEqual({ seat: late, type: 'resignGame', timedOut: true });
    expect(await imported('chicken-foot', text)).toEqual({ status: 'FINISHED', winners: over.outcome!.winners });
  });

  it('Chicken Foot auto-played after a timeout: those actions carry "auto": true in the record, and import as plain actions', async () => {
    const { id, tokens } = await createTyped('chicken-foot', { ruleset: { players: 2, setMax: 6, handSize: 5, targetScore: 1 }, timeControl: { kind: 'FISCHER', baseSeconds: 60 } });
    const late = (await game(id)).clock!.running[0];
    clock.advance(61 * SECOND);
    expect(await worker().tick()).toBeGreaterThanOrEqual(1);
    expect((await game(id)).clock!.autoPlayed).toEqual([late]);
    // The other seat plays the round out (the referee plays the late seat's turns), then both play on if the game goes on.
    for (let i = 0; (await game(id)).status !== 'FINISHED'; i++) {
      if (i > 500) throw new Error('the game did not end');
      await playOne(id, tokens);
    }
    const over = await game(id);
    const actions: Record<string, unknown>[] = JSON.parse(await record(id)).rounds.flatMap((r: { actions: Record<string, unknown>[] }) => r.actions);
    const auto = actions.filter((a) => a.auto === true);
    expect(auto.length).toBeGreaterThan(0);
    expect(new Set(auto.map((a) => a.seat))).toEqual(new Set([late]));
    expect(await imported('chicken-foot', await record(id))).toEqual({ status: 'FINISHED', winners: over.outcome!.winners });
  });
});
