import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { Bot } from '../../tools/bot.js';
import { backgammonEngine, encodePositionId } from '../../src/games/backgammon/engine/index.js';
import { seededRandom } from '../../src/engines/kit/index.js';
import { createRegistry } from '../../src/games/index.js';
import { verifyBundle } from '../../src/referee/core/audit.js';
import { startApp, type TestApp } from '../support/app.js';
import { CREATE, EVENTS, GAME, VERIFY } from '../support/queries.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(async () => {
  await t?.close();
});

const FIXTURES = 'test/fixtures/backgammon';
const http = () => request(t.app.getHttpServer());

const POSITION = `query($id: ID!) { backgammonPosition(gameId: $id) {
  gameId version matchLength score gameNumber crawfordGame postCrawford phase playerOnRoll toAct dice
  cube { value owner max mayDouble } pendingDouble { by value owner stage } resignation { by level }
  board { sides { points bar off pipCount } absolute } positionId matchId gnubgId
  lastTurn { seat dice moves { from to hit } notation passed }
  games { game winner points level endedBy cube crawford scoreAfter } matchWinner
} }`;
const PLAY_FIELDS = 'moves { from to hit } notation resultingPositionId';
const LEGAL_PLAYS = `query($id: ID!) { backgammonLegalPlays(gameId: $id) { ${PLAY_FIELDS} } }`;
const PLAYS = `query($positionId: String!, $dice: [Int!]!) { backgammonPlays(positionId: $positionId, dice: $dice) { ${PLAY_FIELDS} } }`;
const RECORD = `query($id: ID!) { backgammonRecord(gameId: $id) }`;

/** A move mutation document; every one answers a MoveResult. */
const mutation = (name: string, extra: { args: string; vars: string } = { args: '', vars: '' }) => `
mutation($gameId: ID!, $moveId: String!, $expectedVersion: Int${extra.vars}) {
  ${name}(gameId: $gameId, moveId: $moveId, expectedVersion: $expectedVersion${extra.args}) {
    __typename
    ... on MoveAccepted { version status result }
    ... on Rejection { code message currentVersion }
  }
}`;
const ROLL = mutation('backgammonRoll');
const PLAY = mutation('backgammonPlay', { args: ', moves: $moves', vars: ', $moves: [BackgammonCheckerMoveInput!]!' });
const DOUBLE = mutation('backgammonDouble');
const TAKE = mutation('backgammonTake');
const DROP = mutation('backgammonDrop');
const BEAVER = mutation('backgammonBeaver');
const RACCOON = mutation('backgammonRaccoon');
const OFFER_RESIGNATION = mutation('backgammonOfferResignation', { args: ', level: $level', vars: ', $level: BackgammonResignationLevel!' });
const ACCEPT_RESIGNATION = mutation('backgammonAcceptResignation');
const REJECT_RESIGNATION = mutation('backgammonRejectResignation');

interface Position {
  version: number;
  phase: string;
  toAct: number[];
  score: number[];
  cube: { value: number; owner: number | null; mayDouble: boolean };
  pendingDouble: { by: number; value: number; owner: number; stage: string } | null;
  dice: number[] | null;
  games: { winner: number; points: number; endedBy: string; cube: number }[];
  matchWinner: number | null;
  positionId: string;
  matchId: string;
}
interface Play {
  moves: { from: number; to: number; hit: boolean }[];
  notation: string;
  resultingPositionId: string;
}

const position = async (id: string): Promise<Position> => (await t.gql(POSITION, { id })).data.backgammonPosition;
const legalPlays = async (id: string): Promise<Play[]> => (await t.gql(LEGAL_PLAYS, { id })).data.backgammonLegalPlays;
const game = async (id: string) => (await t.gql(GAME, { id })).data.game;

let moveCount = 0;
/** Sends a move mutation with a fresh move id and answers its MoveResult. */
async function send(doc: string, gameId: string, token: string | undefined, vars: Record<string, unknown> = {}) {
  const res = await t.gql(doc, { gameId, moveId: `m${++moveCount}`, ...vars }, token);
  expect(res.errors).toBeUndefined();
  return Object.values(res.data)[0] as { __typename: string; code?: string; message?: string; currentVersion?: number; version?: number; status?: string; result?: any };
}

async function accepted(doc: string, gameId: string, token: string, vars: Record<string, unknown> = {}) {
  const res = await send(doc, gameId, token, vars);
  expect(res).toMatchObject({ __typename: 'MoveAccepted' });
  return res;
}

/** The move is refused with `code`, and the game (version and view) is exactly as before. */
async function refused(doc: string, gameId: string, token: string, code: string, vars: Record<string, unknown> = {}): Promise<string> {
  const before = await game(gameId);
  const res = await send(doc, gameId, token, vars);
  expect(res).toMatchObject({ __typename: 'Rejection', code, currentVersion: before.version });
  const after = await game(gameId);
  expect(after.version).toBe(before.version);
  expect(after.view).toEqual(before.view);
  return res.message!;
}

async function newGame(ruleset: Record<string, unknown>) {
  const res = await t.gql(CREATE, { input: { kind: 'backgammon', ruleset, seats: [{ name: 'Ann' }, { name: 'Bob' }] } });
  expect(res.data.createGame.__typename).toBe('GameCreated');
  const { game: created, tokens } = res.data.createGame as { game: { id: string }; tokens: { seat: number; token: string }[] };
  return { id: created.id, tokens: tokens.map((x) => x.token) };
}

/** Plays the first legal play (whatever the dice), after checking the list against the position. */
async function playFirst(id: string, token: string): Promise<void> {
  const plays = await legalPlays(id);
  expect(plays.length).toBeGreaterThan(0);
  await accepted(PLAY, id, token, { moves: plays[0].moves.map(({ from, to }) => ({ from, to })) });
}

describe('a 3-point match over the typed backgammon API', () => {
  let matchId = '';
  const seen: string[] = [];

  it('plays to its end with seat tokens: a double taken, a redouble dropped, and refused moves that change nothing', async () => {
    const { id, tokens } = await newGame({ matchLength: 3 });
    matchId = id;
    let doubler: number | null = null;
    let takerHasPlayed = false;
    for (let step = 0; step < 3000; step++) {
      const p = await position(id);
      if (p.phase === 'MATCH_OVER') break;
      const seat = p.toAct[0];
      const [mine, theirs] = [tokens[seat], tokens[1 - seat]];
      if (p.phase === 'AWAITING_PLAY') {
        if (!seen.includes('bad play')) {
          // One step of a distance no die or combination of dice makes never follows the dice.
          const [a, b] = p.dice!;
          const reachable = a === b ? [a, 2 * a, 3 * a, 4 * a] : [a, b, a + b];
          const pips = [1, 2, 3, 4, 5, 6].find((d) => !reachable.includes(d))!;
          const from = (await legalPlays(id))[0].moves[0].from;
          const message = await refused(PLAY, id, mine, 'ILLEGAL_MOVE', { moves: [{ from, to: Math.max(0, from - pips) }] });
          expect(message).not.toBe('');
          seen.push('bad play');
        }
        if (doubler !== null && seat !== doubler) takerHasPlayed = true;
        await playFirst(id, mine);
        continue;
      }
      expect(p.phase).toBe('AWAITING_ROLL');
      if (!seen.includes('wrong seat')) {
        expect(await refused(ROLL, id, theirs, 'NOT_YOUR_TURN')).toMatch(/turn/);
        seen.push('wrong seat');
      }
      if (doubler === null && p.cube.mayDouble) {
        await accepted(DOUBLE, id, mine);
        expect(await position(id)).toMatchObject({ phase: 'DOUBLE_OFFERED', toAct: [1 - seat], pendingDouble: { by: seat, value: 2, stage: 'DOUBLE' } });
        await accepted(TAKE, id, theirs);
        expect((await position(id)).cube).toMatchObject({ value: 2, owner: 1 - seat, mayDouble: false });
        doubler = seat;
        seen.push('take');
      } else if (seat === doubler && takerHasPlayed && !seen.includes('bad double')) {
        // The taker owns the cube: the first doubler may not redouble.
        expect(p.cube).toMatchObject({ owner: 1 - seat, mayDouble: false });
        expect(await refused(DOUBLE, id, mine, 'ILLEGAL_MOVE')).toMatch(/owns the cube/);
        seen.push('bad double');
      } else if (seat !== doubler && seen.includes('bad double') && !seen.includes('drop')) {
        expect(p.cube).toMatchObject({ value: 2, owner: seat, mayDouble: true });
        await accepted(DOUBLE, id, mine);
        const dropped = await accepted(DROP, id, theirs);
        expect(dropped.status).toBe('ACTIVE');
        const after = await position(id);
        expect(after.games[0]).toMatchObject({ winner: seat, points: 2, endedBy: 'DROPPED_DOUBLE', cube: 2 });
        seen.push('drop');
        continue;
      }
      await accepted(ROLL, id, mine);
    }
    expect(seen.sort()).toEqual(['bad double', 'bad play', 'drop', 'take', 'wrong seat']);

    const end = await position(id);
    expect(end.phase).toBe('MATCH_OVER');
    expect(end.games[1]).toMatchObject({ crawford: true });
    const winner = end.matchWinner!;
    expect(end.score[winner]).toBeGreaterThanOrEqual(3);
    expect(end.score[1 - winner]).toBeLessThan(3);
    expect(end.toAct).toEqual([]);
    const g = await game(id);
    expect(g.status).toBe('FINISHED');
    expect(g.result).toMatchObject({ winners: [winner], points: end.score });
    expect(await send(ROLL, id, tokens[winner])).toMatchObject({ __typename: 'Rejection', code: 'GAME_OVER' });
  });

  it('verifies the finished match online', async () => {
    const verdict = (await t.gql(VERIFY, { gameId: matchId })).data.verifyGame;
    expect(verdict).toMatchObject({ ok: true, badSeq: null, fairnessChecked: true });
  });

  it('exports the match as .mat (REST and GraphQL alike) and imports it again to the same result', async () => {
    const rest = await http().get(`/api/games/${matchId}/record`).expect(200);
    const text = (await t.gql(RECORD, { id: matchId })).data.backgammonRecord;
    expect(text).toBe(rest.text);
    expect(text).toMatch(/^\s*3 point match$/m);
    expect(text).toMatch(/Doubles => 2/);
    expect(text).toMatch(/Takes/);
    expect(text).toMatch(/Doubles => 4/);
    expect(text).toMatch(/Drops/);

    const imported = await http().post('/api/games/import?kind=backgammon').set('content-type', 'text/plain').send(text);
    expect(imported.status).toBe(201);
    const original = await game(matchId);
    expect(imported.body.result).toEqual(original.result);
    // The import's ruleset is the .mat reader's (no cube limit, resignation any time), so compare the play, not the rules.
    const same = ({ score, games, matchWinner, positionId, matchId }: Position) => ({ score, games, matchWinner, positionId, matchId });
    expect(same(await position(imported.body.id))).toEqual(same(await position(matchId)));
    expect((await t.gql(VERIFY, { gameId: imported.body.id })).data.verifyGame.ok).toBe(true);
  });

  it('exports a bundle that verifies offline, and the CLI says VALID, then INVALID at an edited event', async () => {
    const bundle = (await http().get(`/api/games/${matchId}/bundle`).expect(200)).body;
    expect(verifyBundle(createRegistry(), bundle)).toMatchObject({ ok: true, badSeq: null, fairnessChecked: true });

    const file = join(mkdtempSync(join(tmpdir(), 'bg-bundle-')), 'match.json');
    const cli = () => spawnSync(process.execPath, ['dist/src/cli/verify.js', file], { encoding: 'utf8' });
    writeFileSync(file, JSON.stringify(bundle));
    const valid = cli();
    expect({ status: valid.status, stdout: valid.stdout }).toMatchObject({ status: 0, stdout: expect.stringMatching(/^VALID/) });

    const victim = bundle.events.find((e: { type: string; payload: any }) => e.type === 'ActionTaken' && e.payload.action.type === 'play');
    victim.payload.action.moves[0].to = victim.payload.action.moves[0].to === 1 ? 2 : 1;
    writeFileSync(file, JSON.stringify(bundle));
    const invalid = cli();
    expect(invalid.status).toBe(1);
    expect(invalid.stdout).toMatch(new RegExp(`^INVALID: FAILED at event ${victim.seq}\\b`));
  });
});

describe('records', () => {
  const expected: Record<string, { matchLength: number; games: number; players: string[]; finalScore: number[]; winner: string }> = JSON.parse(readFileSync(join(FIXTURES, 'expected.json'), 'utf8'));

  it.each(Object.keys(expected))('imports %s to the result gnubg recorded', async (file) => {
    const want = expected[file];
    const res = await http()
      .post('/api/games/import?kind=backgammon')
      .set('content-type', 'text/plain')
      .send(readFileSync(join(FIXTURES, file), 'utf8'));
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('FINISHED');
    expect(res.body.result).toMatchObject({ winners: [want.players.indexOf(want.winner)], points: want.finalScore });
    const g = await game(res.body.id);
    expect(g.seats.map((s: { name: string }) => s.name)).toEqual(want.players);
    expect(g.fairness.randomSource).toBe('supplied');
    const p = await position(res.body.id);
    expect(p).toMatchObject({ matchLength: want.matchLength, score: want.finalScore, matchWinner: want.players.indexOf(want.winner) });
    expect(p.games).toHaveLength(want.games);
  });

  it('refuses a corrupted record, naming the game and the move', async () => {
    const text = readFileSync(join(FIXTURES, 'match-7-pt-seed119785.mat'), 'utf8');
    const original = ' 4) 53: 25/22 13/8 ';
    expect(text.split(original)).toHaveLength(2);
    const res = await http().post('/api/games/import?kind=backgammon').set('content-type', 'text/plain').send(text.replace(original, ' 4) 53: 25/22 13/7 '));
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('ILLEGAL_MOVE');
    expect(res.body.error.message).toMatch(/^game 3, move 4 \(gnubg\): /);
  });
});

describe('analysis without a game: backgammonPlays', () => {
  it('lists every play of 3-1 from the opening position, 8/5 6/5 among them', async () => {
    const res = await t.gql(PLAYS, { positionId: '4HPwATDgc/ABMA', dice: [3, 1] });
    const plays: Play[] = res.data.backgammonPlays;
    const pointMaker = plays.find((p) => p.notation === '8/5 6/5');
    expect(pointMaker?.moves).toEqual([
      { from: 8, to: 5, hit: false },
      { from: 6, to: 5, hit: false },
    ]);
    expect(new Set(plays.map((p) => p.resultingPositionId)).size).toBe(plays.length);
    expect(plays.length).toBeGreaterThan(10);
  });

  it('answers an empty list when the roll cannot be played', async () => {
    // The side on roll has one checker on the bar against a closed board.
    const res = await t.gql(PLAYS, { positionId: closedOutPositionId(), dice: [6, 5] });
    expect(res.data.backgammonPlays).toEqual([]);
  });

  it.each([
    ['a malformed Position ID', { positionId: 'not-an-id', dice: [3, 1] }, /Position ID/],
    ['impossible dice', { positionId: '4HPwATDgc/ABMA', dice: [7, 1] }, /dice/],
    ['one die', { positionId: '4HPwATDgc/ABMA', dice: [3] }, /dice/],
  ])('refuses %s with INVALID_INPUT', async (_what, vars, message) => {
    const res = await t.gql(PLAYS, vars);
    expect(res.data).toBeNull();
    expect(res.errors[0].extensions.code).toBe('INVALID_INPUT');
    expect(res.errors[0].message).toMatch(message);
  });
});

/** A Position ID where the side on roll has a checker on the bar and the opponent a closed board. */
function closedOutPositionId(): string {
  const notOnRoll = new Array<number>(25).fill(0);
  for (let i = 0; i < 6; i++) notOnRoll[i] = 2;
  notOnRoll[12] = 3;
  const onRoll = new Array<number>(25).fill(0);
  onRoll[24] = 1;
  onRoll[5] = 14;
  return encodePositionId([notOnRoll, onRoll]);
}

describe('cube and resignation actions in a money game', () => {
  it('doubles, beavers, raccoons and takes; a resignation is rejected, a lower repeat refused, a higher one accepted', async () => {
    const { id, tokens } = await newGame({ matchLength: 0, beavers: 1, raccoons: true });
    const opener = (await position(id)).toAct[0];
    await playFirst(id, tokens[opener]);
    const seat = 1 - opener;
    const [mine, theirs] = [tokens[seat], tokens[opener]];
    expect(await position(id)).toMatchObject({ phase: 'AWAITING_ROLL', toAct: [seat], cube: { mayDouble: true } });

    await accepted(DOUBLE, id, mine);
    await accepted(BEAVER, id, theirs);
    expect((await position(id)).pendingDouble).toEqual({ by: opener, value: 4, owner: opener, stage: 'BEAVER' });
    await accepted(RACCOON, id, mine);
    await accepted(TAKE, id, theirs);
    expect((await position(id)).cube).toMatchObject({ value: 8, owner: seat });

    await accepted(OFFER_RESIGNATION, id, mine, { level: 'SINGLE' });
    expect(await position(id)).toMatchObject({ resignation: { by: seat, level: 'SINGLE' }, toAct: [opener] });
    await accepted(REJECT_RESIGNATION, id, theirs);
    expect(await refused(OFFER_RESIGNATION, id, mine, 'ILLEGAL_MOVE', { level: 'SINGLE' })).toMatch(/rejected/);
    await accepted(OFFER_RESIGNATION, id, mine, { level: 'GAMMON' });
    const end = await accepted(ACCEPT_RESIGNATION, id, theirs);
    expect(end.status).toBe('FINISHED');
    expect(end.result).toMatchObject({ winners: [opener] });
    expect((await position(id)).games[0]).toMatchObject({ winner: opener, points: 16, level: 'GAMMON', endedBy: 'RESIGNATION', cube: 8 });
  });

  it('refuses a beaver in match play and a take with no double offered', async () => {
    const { id, tokens } = await newGame({ matchLength: 5 });
    const opener = (await position(id)).toAct[0];
    await playFirst(id, tokens[opener]);
    expect(await refused(TAKE, id, tokens[opener], 'NO_PENDING_DECISION')).toMatch(/no double/);
    await accepted(DOUBLE, id, tokens[1 - opener]);
    expect(await refused(BEAVER, id, tokens[opener], 'ILLEGAL_MOVE')).toMatch(/match play/);
  });
});

describe('the typed API and other games', () => {
  it('refuses backgammon moves and queries on a game of another kind', async () => {
    const res = await t.gql(CREATE, { input: { kind: 'duel' } });
    const { game: duel, tokens } = res.data.createGame;
    const move = await send(ROLL, duel.id, tokens[0].token);
    expect(move).toMatchObject({ __typename: 'Rejection', code: 'INVALID_INPUT', message: expect.stringMatching(/not backgammon/) });
    const query = await t.gql(POSITION, { id: duel.id });
    expect(query.errors[0].extensions.code).toBe('INVALID_INPUT');
    const missing = await t.gql(LEGAL_PLAYS, { id: 'no-such-game' });
    expect(missing.errors[0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('forced plays (ruleset autoPlayForced)', () => {
  it('the referee plays a roll that leaves one legal play for its seat, marked forced; no client sends one, and the match verifies', async () => {
    type Served = { seq: number; type: string; actor: number | null; moveId: string | null; payload: { action?: unknown; forced?: true; chance?: unknown } };
    // Random bots (cubeless, so games are played out), game after game, until a roll leaves one play (bear-offs do, often): a handful of games is plenty.
    let events: Served[] = [];
    let gameId = '';
    for (let seed = 1; seed <= 8 && !events.some((e) => e.payload.forced); seed++) {
      const bot = new Bot(t.url, backgammonEngine, { matchLength: 1, cubeEnabled: false, autoPlayForced: true }, seededRandom(seed), `forced-${seed}`);
      await bot.newGame();
      while (!bot.finished()) expect((await bot.move()).accepted).toBe(true);
      gameId = bot.gameId;
      events = (await t.gql(EVENTS, { gameId })).data.gameEvents.nodes;
    }
    const forced = events.filter((e) => e.payload.forced);
    expect(forced.length).toBeGreaterThan(0);
    for (const e of forced) {
      // Its own event, in the decision that rolled the dice: no move id of a client, right after the roll.
      expect(e).toMatchObject({ type: 'ActionTaken', moveId: null });
      expect(events[events.indexOf(e) - 1].type).toBe('DiceRolled');
    }
    expect((await t.gql(VERIFY, { gameId })).data.verifyGame).toMatchObject({ ok: true, fairnessChecked: true });
    const check = (await t.gql('query { backgammonRulesetCheck(ruleset: { autoPlayForced: true }) { ok options { autoPlayForced } } }', {})).data.backgammonRulesetCheck;
    expect(check).toEqual({ ok: true, options: { autoPlayForced: true } });
  }, 120_000);
});
