#!/usr/bin/env node
// A bot over plain HTTP: creates a game (the one GraphQL call: REST creates none) and plays every
// seat to the end with random legal actions, read from GET /api/games/:id and sent to
// POST /api/games/:id/actions. Node 20 or later, no dependencies.
//
//   ARBITER_URL=http://localhost:3000 node clients/rest-bot/play.mjs [backgammon|chicken-foot|cerke ...]
//
// A refusal (another move came first, the clock ran out) is answered by reading the game again.

const base = (process.env.ARBITER_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const kinds = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['backgammon', 'chicken-foot', 'cerke'];
/** Short games: one point, one round, one season. */
const RULESETS = { backgammon: { matchLength: 1 }, 'chicken-foot': { preset: 'CLASSIC', players: 2, gameEnd: { targetScore: 1 } }, cerke: { profile: 'ONLINE', seasons: 1 } };
const MOST_ACTIONS = 20_000;
/** Actions that end a game early: chosen only when nothing else is legal, so that a game is played out. */
const CONCEDING = new Set(['resign', 'drop', 'double']);

async function call(method, path, { token, body } = {}) {
  for (;;) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = await res.json();
    // Over a rate budget: wait as told, then send the same request again.
    if (res.status === 429) await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
    else return { status: res.status, answer };
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function create(kind) {
  const query = `mutation($input: CreateGameInput!) {
    createGame(input: $input) { __typename ... on GameCreated { game { id } tokens { seat token } } ... on Rejection { code message } } }`;
  const { answer } = await call('POST', '/graphql', { body: { query, variables: { input: { kind, ruleset: RULESETS[kind] ?? null } } } });
  const created = answer.data?.createGame;
  if (created?.__typename !== 'GameCreated') throw new Error(`${kind}: not created: ${JSON.stringify(created ?? answer.errors)}`);
  return { id: created.game.id, tokens: Object.fromEntries(created.tokens.map((t) => [t.seat, t.token])) };
}

async function play(kind) {
  const { id, tokens } = await create(kind);
  console.log(`${kind}: game ${id}, seats ${Object.keys(tokens).join(', ')}`);
  let actions = 0;
  let refusals = 0;
  for (;;) {
    const { answer: game } = await call('GET', `/api/games/${id}`);
    if (game.status === 'FINISHED' || game.status === 'ABORTED') {
      console.log(`${kind}: ${game.status} after ${actions} actions (${refusals} refused and read again): ${game.result?.summary ?? JSON.stringify(game.result)}`);
      return;
    }
    if (actions >= MOST_ACTIONS) throw new Error(`${kind}: no end after ${actions} actions`);
    if (game.toAct.length === 0) {
      await sleep(50); // the referee is drawing a chance, or playing for a seat
      continue;
    }
    const seat = game.toAct[Math.floor(Math.random() * game.toAct.length)];
    const { answer: mine } = await call('GET', `/api/games/${id}`, { token: tokens[seat] });
    if (mine.legalActions.length === 0) continue;
    const playing = mine.legalActions.filter((a) => !CONCEDING.has(a?.type));
    const choices = playing.length > 0 ? playing : mine.legalActions;
    const action = choices[Math.floor(Math.random() * choices.length)];
    const moved = await call('POST', `/api/games/${id}/actions`, { token: tokens[seat], body: { action, moveId: crypto.randomUUID(), expectedVersion: mine.version } });
    if (moved.status === 200) actions++;
    else if (moved.answer.error?.code === 'INVALID_INPUT' || moved.answer.error?.code === 'UNAUTHORIZED') throw new Error(`${kind}: ${JSON.stringify(moved.answer.error)}`);
    else refusals++; // VERSION_CONFLICT, NOT_YOUR_TURN, OUT_OF_TIME, ...: read the game again
  }
}

for (const kind of kinds) await play(kind);
