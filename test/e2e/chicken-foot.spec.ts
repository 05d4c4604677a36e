import { createClient, type Client } from 'graphql-ws';
import request from 'supertest';
import WebSocket from 'ws';
import { buildSet } from '../../src/games/chicken-foot/engine/index.js';
import { hashOf } from '../../src/referee/core/canonical.js';
import { startApp, type TestApp } from '../support/app.js';
import { CREATE, GAME, VERIFY } from '../support/queries.js';

// Timeouts here (the app's start-up and stop: 120 s; the whole game: 300 s; games played in part:
// 120 s) are safety nets only, far above what they take on an idle machine (the whole game: about
// 20 s), so a loaded machine slows the tests down without failing them. Nothing checked depends on speed.

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
}, 120_000);
afterAll(async () => {
  await t?.close();
}, 120_000);

// ------------------------------------------------------------------ documents

const CREATE_CF = `mutation($input: ChickenFootGameInput!) {
  createChickenFootGame(input: $input) {
    __typename
    ... on GameCreated { game { id status version ruleset fairness { randomSource } } tokens { seat token } }
    ... on Rejection { code message }
  }
}`;

const TABLE_FIELDS = `gameId version status seat hand players preset firstDealer roundNumber turn totals result
  round { number dealer startDouble starter searchDraws phase hub { tile arms requiredArms capacity } openFoot { tile toes needed }
          table targets handSizes yardSize drawable drawsThisTurn }
  finishedRounds { number dealer startDouble starter searchDraws end wentOut scores roundWinners shuffle order dealtHands handsLeft yardLeft table }`;

/** Everything one caller is served about a game in one request. */
const SNAPSHOT = `query($id: ID!, $after: String) {
  chickenFootTable(gameId: $id) { ${TABLE_FIELDS} }
  chickenFootLegalActions(gameId: $id) { seat plays { tile target announce } canDraw canPass }
  game(id: $id) { version status view legalActions }
  gameEvents(gameId: $id, after: $after) { nodes { seq type actor payload } }
}`;

const MOVE_RESULT = `__typename
  ... on MoveAccepted { version status events { seq type actor payload } }
  ... on Rejection { code message currentVersion }`;
const MOVES = {
  chickenFootPlay: `mutation($gameId: ID!, $moveId: String!, $expectedVersion: Int, $tile: String!, $target: String!) {
    chickenFootPlay(gameId: $gameId, moveId: $moveId, expectedVersion: $expectedVersion, tile: $tile, target: $target) { ${MOVE_RESULT} } }`,
  chickenFootDraw: `mutation($gameId: ID!, $moveId: String!, $expectedVersion: Int) {
    chickenFootDraw(gameId: $gameId, moveId: $moveId, expectedVersion: $expectedVersion) { ${MOVE_RESULT} } }`,
  chickenFootPass: `mutation($gameId: ID!, $moveId: String!, $expectedVersion: Int) {
    chickenFootPass(gameId: $gameId, moveId: $moveId, expectedVersion: $expectedVersion) { ${MOVE_RESULT} } }`,
};
type MoveName = keyof typeof MOVES;

const RECORD = `query($id: ID!) { chickenFootRecord(gameId: $id) }`;

/** Just what a player needs to move: the public table, then the legal actions with the seat's token. */
const TABLE = `query($id: ID!) { chickenFootTable(gameId: $id) { ${TABLE_FIELDS} } }`;
const LEGAL = `query($id: ID!) { chickenFootLegalActions(gameId: $id) { seat plays { tile target announce } canDraw canPass } }`;

// ------------------------------------------------------------------ helpers

/** Short, but a whole game: a double-6 set, hands of 5, seven rounds from 6-6 down to 0-0. */
const SHORT = { preset: 'CLASSIC', players: 4, setMax: 6, handSize: 5 };

async function createCf(input: Record<string, unknown>) {
  const res = await t.gql(CREATE_CF, { input });
  expect(res.errors).toBeUndefined();
  return res.data.createChickenFootGame;
}

async function snapshot(id: string, token: string | undefined, after = 0) {
  const res = await t.gql(SNAPSHOT, { id, after: String(after) }, token);
  expect(res.errors).toBeUndefined();
  return { ...res.data, gameEvents: res.data.gameEvents.nodes };
}

async function query(document: string, id: string, token: string | undefined) {
  const res = await t.gql(document, { id }, token);
  expect(res.errors).toBeUndefined();
  return res.data;
}

async function move(name: MoveName, vars: Record<string, unknown>, token: string | undefined) {
  const res = await t.gql(MOVES[name], vars, token);
  expect(res.errors).toBeUndefined();
  return res.data[name];
}

/** The seat to act's choice: its first legal play, else a draw, else a pass. */
function choose(legal: { plays: { tile: string; target: string }[]; canDraw: boolean }): [MoveName, Record<string, unknown>] {
  if (legal.plays.length > 0) return ['chickenFootPlay', { tile: legal.plays[0].tile, target: legal.plays[0].target }];
  return legal.canDraw ? ['chickenFootDraw', {}] : ['chickenFootPass', {}];
}

/** Tiles of other seats' hands (every hand for the spectator, index 4). */
const secretFor = (hands: string[][], viewer: number) => hands.flatMap((hand, seat) => (seat === viewer ? [] : hand));

/** The tiles of `secret` that appear, as JSON strings, anywhere in `served`. */
const leaked = (served: unknown, secret: Iterable<string>) => {
  const text = JSON.stringify(served);
  return [...new Set(secret)].filter((tile) => text.includes(JSON.stringify(tile)));
};

const sorted = (tiles: string[]) => tiles.slice().sort();

function subscribe(id: string, token: string | undefined) {
  const client: Client = createClient({
    url: `${t.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
  });
  const events: { seq: number; type: string; actor: number | null; payload: any }[] = [];
  const errors: unknown[] = [];
  client.subscribe(
    { query: 'subscription($id: ID!) { gameEvents(gameId: $id, afterSeq: 0) { seq type actor payload } }', variables: { id } },
    { next: (msg) => events.push((msg.data as any).gameEvents), error: (e) => errors.push(e), complete: () => undefined },
  );
  return { client, events, errors };
}

/** Polls until `done`; the deadline is a safety net, not a speed requirement. */
async function until(done: () => boolean, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (!done()) throw new Error(`timed out waiting for ${what}`);
}

/** Plays with each seat's own token until `stop` says so (or the game ends). */
async function playUntil(id: string, tokens: string[], stop: (table: any) => boolean) {
  for (let i = 0; i < 500; i++) {
    const table = (await query(TABLE, id, undefined)).chickenFootTable;
    if (table.status === 'FINISHED' || stop(table)) return table;
    const legal = (await query(LEGAL, id, tokens[table.turn])).chickenFootLegalActions;
    const [name, vars] = choose(legal);
    const res = await move(name, { gameId: id, moveId: `p${i}`, expectedVersion: table.version, ...vars }, tokens[table.turn]);
    expect(res.__typename).toBe('MoveAccepted');
  }
  throw new Error('the game did not end');
}

// ------------------------------------------------------------------ tests

describe('Chicken Foot over GraphQL', () => {
  /** The 4-player game the first test plays to its end; the record tests reuse it. */
  let played: { id: string; tokens: string[]; table: any; version: number };

  it("plays a 4-player game to its end with seat tokens, never serving a seat another seat's tiles", async () => {
    const created = await createCf({ ruleset: SHORT });
    expect(created.__typename).toBe('GameCreated');
    expect(created.game.fairness.randomSource).toBe('fair');
    const id: string = created.game.id;
    const tokens: string[] = created.tokens.map((x: { token: string }) => x.token);
    const viewers = [...tokens, undefined];
    const subs = viewers.map((token) => subscribe(id, token));

    // The record would reveal the hands: refused until the game ends.
    expect((await t.gql(RECORD, { id })).errors[0].extensions.code).toBe('GAME_NOT_FINISHED');
    expect((await request(t.app.getHttpServer()).get(`/api/games/${id}/record`)).status).toBe(409);

    const lastSeq = viewers.map(() => 0);
    const queried = viewers.map(() => new Map<number, unknown>());
    const commitments = new Map<number, string>();
    let prev: { hands: string[][]; round: number } | null = null;
    let lastMove: { seat: number; events: { seq: number }[] } | null = null;
    let rejectionsChecked = false;
    let steps = 0;

    for (;;) {
      const snaps = await Promise.all(viewers.map((token, v) => snapshot(id, token, lastSeq[v])));
      const table = snaps[4].chickenFootTable;
      if (table.status === 'FINISHED') break;
      expect(table.status).toBe('PLAYING');
      const hands: string[][] = snaps.slice(0, 4).map((s) => s.chickenFootTable.hand);
      const roundChanged = prev !== null && prev.round !== table.roundNumber;

      snaps.forEach((snap, v) => {
        const mine = snap.chickenFootTable;
        if (v < 4) {
          expect(mine.seat).toBe(v);
          expect(mine.hand).toHaveLength(mine.round.handSizes[v]);
          expect(snap.game.view.round.hand).toEqual(mine.hand);
        } else {
          expect(mine).toMatchObject({ seat: null, hand: null });
          expect(snap.game.view.round.hand).toBeUndefined();
          expect(snap.chickenFootLegalActions).toEqual({ seat: null, plays: [], canDraw: false, canPass: false });
          expect(snap.game.legalActions).toEqual([]);
        }
        // The round in play (finished rounds are public and reuse the same tiles).
        const { finishedRounds: _rounds, ...current } = mine;
        const { rounds: _viewRounds, ...view } = snap.game.view;
        const secretNow = secretFor(hands, v);
        expect(leaked([current, view, snap.game.legalActions, snap.chickenFootLegalActions], secretNow)).toEqual([]);
        for (const e of snap.gameEvents) {
          // An action is checked against the hands around it; the played tile itself is public.
          let secret = secretNow;
          if (e.type === 'ActionTaken' && prev) {
            const before = secretFor(prev.hands, v).filter((tile) => tile !== e.payload.action.tile);
            secret = roundChanged ? before : [...before, ...secretNow];
          }
          expect({ seq: e.seq, viewer: v, leaked: leaked(e.payload, secret) }).toEqual({ seq: e.seq, viewer: v, leaked: [] });
          if (e.type === 'TilesShuffled') {
            expect(e.payload.chance.values).toBeUndefined();
            commitments.set(e.payload.view.round, e.payload.chance.commitment);
          }
          queried[v].set(e.seq, e);
          lastSeq[v] = e.seq;
        }
      });
      // The mover was answered with exactly the events it is served later.
      if (lastMove) for (const e of lastMove.events) expect(queried[lastMove.seat].get(e.seq)).toEqual(e);

      // Once a round is over, its shuffle values are public and match the commitment served with its deal.
      if (roundChanged) {
        expect(table.finishedRounds).toHaveLength(table.roundNumber - 1);
        for (const r of table.finishedRounds) expect(hashOf(r.shuffle)).toBe(commitments.get(r.number));
      }

      const turn: number = table.turn;
      const legal = snaps[turn].chickenFootLegalActions;
      // At the start of a turn with a play, so a pass is refused as MUST_PLAY (after a draw it would be MUST_PLAY_DRAWN).
      if (!rejectionsChecked && legal.plays.length > 0 && table.round.drawsThisTurn === 0) {
        rejectionsChecked = true;
        const next = (turn + 1) % 4;
        const own: string[] = hands[turn];
        const notPlayable = own.find((tile) => !legal.plays.some((p: { tile: string }) => p.tile === tile));
        const cases: [MoveName, string, Record<string, unknown>, string][] = [
          ['chickenFootPlay', tokens[next], { tile: hands[next][0], target: 'hub' }, 'NOT_YOUR_TURN'],
          ['chickenFootPlay', tokens[turn], { tile: hands[(turn + 2) % 4][0], target: legal.plays[0].target }, 'TILE_NOT_IN_HAND'],
          ['chickenFootPlay', tokens[turn], { tile: legal.plays[0].tile, target: own.find((tile) => tile !== legal.plays[0].tile) }, 'TARGET_NOT_OPEN'],
          ['chickenFootDraw', tokens[turn], {}, 'MUST_PLAY'],
          ['chickenFootPass', tokens[turn], {}, 'MUST_PLAY'],
          ...(notPlayable ? [['chickenFootPlay', tokens[turn], { tile: notPlayable, target: legal.plays[0].target }, 'NO_MATCH'] as [MoveName, string, Record<string, unknown>, string]] : []),
        ];
        for (const [i, [name, token, vars, code]] of cases.entries()) {
          const res = await move(name, { gameId: id, moveId: `bad-${i}`, expectedVersion: table.version, ...vars }, token);
          expect({ i, type: res.__typename, code: res.code, currentVersion: res.currentVersion }).toEqual({ i, type: 'Rejection', code, currentVersion: table.version });
          const actor = tokens.indexOf(token);
          expect(
            leaked(
              res.message,
              secretFor(hands, actor).filter((tile) => tile !== vars.tile),
            ),
          ).toEqual([]);
        }
        const after = await Promise.all(viewers.map((token, v) => snapshot(id, token, lastSeq[v])));
        after.forEach((snap, v) => {
          expect(snap.chickenFootTable).toEqual(snaps[v].chickenFootTable);
          expect(snap.game).toEqual(snaps[v].game);
          expect(snap.gameEvents).toEqual([]);
        });
      }

      const [name, vars] = choose(legal);
      const res = await move(name, { gameId: id, moveId: `m${steps}`, expectedVersion: table.version, ...vars }, tokens[turn]);
      expect(res.__typename).toBe('MoveAccepted');
      lastMove = { seat: turn, events: res.events };
      prev = { hands, round: table.roundNumber };
      steps++;
    }
    expect(rejectionsChecked).toBe(true);

    const end = (await query(TABLE, id, tokens[0])).chickenFootTable;
    expect(end.status).toBe('FINISHED');
    expect(end.round).toBeNull();
    expect(end.finishedRounds.map((r: { startDouble: string }) => r.startDouble)).toEqual(['6-6', '5-5', '4-4', '3-3', '2-2', '1-1', '0-0']);
    expect(end.totals).toEqual([0, 1, 2, 3].map((seat) => end.finishedRounds.reduce((sum: number, r: { scores: number[] }) => sum + r.scores[seat], 0)));
    expect(end.result.points).toEqual(end.totals);
    expect(end.result.winners.length).toBeGreaterThan(0);
    for (const r of end.finishedRounds) expect(hashOf(r.shuffle)).toBe(commitments.get(r.number));
    expect(commitments.size).toBe(7);

    // Every subscriber got the whole stream, each event exactly as the gameEvents query served it to the same viewer.
    const version = (await t.gql(GAME, { id })).data.game.version;
    await until(() => subs.every((s) => s.events.at(-1)?.seq === version), 'the subscriptions');
    for (const [v, sub] of subs.entries()) {
      expect(sub.errors).toEqual([]);
      expect(sub.events.map((e) => e.seq)).toEqual(Array.from({ length: version }, (_, i) => i + 1));
      const compared = sub.events.filter((e) => queried[v].has(e.seq));
      expect(compared.length).toBeGreaterThan(version / 2);
      for (const e of compared) expect(e).toEqual(queried[v].get(e.seq));
      await sub.client.dispose();
    }
    played = { id, tokens, table: end, version };
  }, 300_000);

  it('verifies the finished game and exports its record, which imports to the same result', async () => {
    const { id, table } = played;
    expect((await t.gql(VERIFY, { gameId: id })).data.verifyGame).toMatchObject({ ok: true, badSeq: null, fairnessChecked: true });
    const text: string = (await t.gql(RECORD, { id })).data.chickenFootRecord;
    const rest = await request(t.app.getHttpServer()).get(`/api/games/${id}/record`);
    expect(rest.status).toBe(200);
    expect(rest.text).toBe(text);
    expect(JSON.parse(text)).toMatchObject({ format: 'arbiter-chicken-foot/1', rounds: expect.any(Array) });

    const imported = await request(t.app.getHttpServer()).post('/api/games/import?kind=chicken-foot').set('content-type', 'text/plain').send(text);
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({ kind: 'chicken-foot', status: 'FINISHED', result: table.result });
    const copy = (await query(TABLE, imported.body.id, undefined)).chickenFootTable;
    expect(copy.finishedRounds).toEqual(table.finishedRounds);
    expect(copy.totals).toEqual(table.totals);
    expect((await t.gql(RECORD, { id: imported.body.id })).data.chickenFootRecord).toBe(text);
    expect((await t.gql(VERIFY, { gameId: imported.body.id })).data.verifyGame.ok).toBe(true);
  }, 120_000);

  it('refuses a corrupted record, naming the first illegal action', async () => {
    const record = JSON.parse((await t.gql(RECORD, { id: played.id })).data.chickenFootRecord);
    // Two actions sent by the wrong seat; the earlier one is named.
    for (const [round, action] of [
      [2, 2],
      [3, 0],
    ]) {
      const a = record.rounds[round].actions[action];
      a.seat = (a.seat + 1) % 4;
    }
    const res = await request(t.app.getHttpServer()).post('/api/games/import?kind=chicken-foot').set('content-type', 'text/plain').send(JSON.stringify(record));
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('ILLEGAL_MOVE');
    expect(res.body.error.message).toMatch(/^round 3, action 3: it is seat \d's turn/);
  });

  it("deals an organizer's hands exactly, round after round, and marks the game as supplied", async () => {
    const set = buildSet(6);
    // Round 1 starts with 6-6 and round 2 with 5-5: that double is set aside, the rest is dealt.
    const deal = (double: string, finder: number) => {
      const rest = set.filter((tile) => tile !== double).reverse();
      return { hands: [0, 1, 2, 3].map((seat) => rest.slice(seat * 5, seat * 5 + 5)), yard: rest.slice(20), finder };
    };
    const deals = [deal('6-6', 1), deal('5-5', 3)];
    const created = await createCf({ ruleset: SHORT, deals, drawnFirstDealer: 2, seats: [{ name: 'N' }, { name: 'E' }, { name: 'S' }, { name: 'W' }] });
    expect(created.__typename).toBe('GameCreated');
    expect(created.game.fairness.randomSource).toBe('supplied');
    const id = created.game.id;
    const tokens: string[] = created.tokens.map((x: { token: string }) => x.token);

    const expectDealt = async (d: { hands: string[][]; yard: string[] }, round: number, dealer: number, finder: number) => {
      for (const [seat, token] of tokens.entries()) {
        const table = (await query(TABLE, id, token)).chickenFootTable;
        expect(table).toMatchObject({ roundNumber: round, firstDealer: 2, turn: finder, round: { dealer, starter: finder, yardSize: d.yard.length } });
        expect(sorted(table.hand)).toEqual(sorted(d.hands[seat]));
      }
    };
    await expectDealt(deals[0], 1, 2, 1);
    const between = await playUntil(id, tokens, (table) => table.roundNumber === 2);
    expect(between.finishedRounds[0].dealtHands.map(sorted)).toEqual(deals[0].hands.map(sorted));
    await expectDealt(deals[1], 2, 3, 3);
    expect((await t.gql(GAME, { id })).data.game.fairness.randomSource).toBe('supplied');
  }, 120_000);

  it.each([
    ['a tile dealt twice', (d: any) => (d[0].hands[1][0] = d[0].hands[0][0]), {}, /deal for round 1: impossible deal: \S+ is dealt twice/],
    ['a short yard', (d: any) => d[0].yard.pop(), {}, /the yard must hold 7 tiles, not 6/],
    ['no finder', (d: any) => delete d[0].finder, {}, /finder must be a seat from 0 to 3/],
    ['round 1 without 6-6 set aside', (d: any) => (d[0] = { ...d[1], finder: 0 }), {}, /round 1 starts with 6-6, set aside before the deal.*missing: 5-5/],
    ['no first dealer for the deals', () => undefined, { drawnFirstDealer: null }, /need drawnFirstDealer/],
    ['a first dealer out of range', () => undefined, { drawnFirstDealer: 4 }, /drawnFirstDealer must be a seat from 0 to 3/],
  ])('refuses an impossible organizer deal: %s', async (_name, spoil, extra, message) => {
    const set = buildSet(6);
    const deal = (double: string) => {
      const rest = set.filter((tile) => tile !== double);
      return { hands: [0, 1, 2, 3].map((seat) => rest.slice(seat * 5, seat * 5 + 5)), yard: rest.slice(20), finder: 0 };
    };
    const deals = [deal('6-6'), deal('5-5')];
    spoil(deals);
    const res = await createCf({ ruleset: SHORT, deals, drawnFirstDealer: 0, ...extra });
    expect(res).toMatchObject({ __typename: 'Rejection', code: 'INVALID_INPUT', message: expect.stringMatching(message) });
  });

  it('checks rulesets without creating a game, and maps the typed options onto the ruleset', async () => {
    const CHECK = `query($r: JSON!) { chickenFootRulesetCheck(ruleset: $r) { ok message warnings ruleset } }`;
    const small = (await t.gql(CHECK, { r: { players: 4, setMax: 6, handSize: 5 } })).data.chickenFootRulesetCheck;
    expect(small).toMatchObject({ ok: true, message: null, ruleset: { preset: 'classic', hubRequiredArms: 4, yardReserve: 1 } });
    expect(small.warnings).toEqual([expect.stringMatching(/the yard after the deal holds only 7 tiles/)]);
    expect((await t.gql(CHECK, { r: { players: 4 } })).data.chickenFootRulesetCheck).toMatchObject({ ok: true, warnings: [] });
    expect((await t.gql(CHECK, { r: { players: 9 } })).data.chickenFootRulesetCheck).toMatchObject({
      ok: false,
      message: expect.stringMatching(/players must be between 2 and 8/),
      ruleset: null,
    });

    const typed = await createCf({ ruleset: { preset: 'MALTA_CROSS', players: 3, firstDealer: 1, drawPolicy: 'UNTIL_PLAYABLE', targetScore: 150, overrides: { doubleBlankValue: 25 } } });
    expect(typed.game.ruleset).toMatchObject({ preset: 'malta-cross', players: 3, firstDealer: 1, drawPolicy: 'untilPlayable', gameEnd: { targetScore: 150 }, doubleBlankValue: 25 });
    expect(await createCf({ ruleset: { players: 3, overrides: { players: 4 } } })).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/"players" is given both/) });
    expect(await createCf({ ruleset: { players: 3, handSize: 30 } })).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/3 hands of 30 need 90 tiles/) });
    expect(await createCf({ ruleset: { players: 3, firstDealer: 0 }, drawnFirstDealer: 1 })).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/only when the ruleset's firstDealer is "random"/),
    });
  });

  it('refuses its typed moves and queries on a game of another kind', async () => {
    const duel = (await t.gql(CREATE, { input: { kind: 'duel' } })).data.createGame;
    const res = await move('chickenFootDraw', { gameId: duel.game.id, moveId: 'x' }, duel.tokens[0].token);
    expect(res).toMatchObject({ __typename: 'Rejection', code: 'INVALID_INPUT', message: expect.stringMatching(/is a duel game, not chicken-foot/) });
    const table = await t.gql(SNAPSHOT, { id: duel.game.id });
    expect(table.errors[0].extensions.code).toBe('INVALID_INPUT');
    expect((await move('chickenFootPass', { gameId: 'nope', moveId: 'x' }, duel.tokens[0].token)).code).toBe('NOT_FOUND');
  });
});
