import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { hashOf } from '../../src/referee/core/canonical.js';
import { startApp, type TestApp } from '../support/app.js';
import { CREATE } from '../support/queries.js';

// Typed answers on the generic API: Game.state, Game.legalMoves, Game.outcome, MoveAccepted.game,
// GameEvent.detail; one `toAct` everywhere; ruleset choices in either spelling; typed rulesets.
// Union members may share a field name with different types (each game's `phase`, an action's `type`):
// a document reading both aliases them, as GraphQL requires.

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
}, 120_000);
afterAll(async () => {
  await t?.close();
}, 120_000);

// ------------------------------------------------------------------ documents

const DETAIL = `detail {
  __typename
  ... on ChanceDrawnDetail { label values commitment hidden source seen }
  ... on ActionTakenDetail { seat action {
    __typename
    ... on BackgammonActionTaken { bgType: type moves { from to } level }
    ... on ChickenFootActionTaken { cfType: type tile target chickenFoot penaltyTiles penaltyDraws }
    ... on CerkeLegalAction { cerkeType: type from via to }
  } }
  ... on SeatJoinedDetail { seat name }
  ... on GameStartedDetail { clientSeeds }
  ... on ResignedDetail { seat }
  ... on GameCreatedDetail { kind rulesetHash seatNames randomSource imported }
  ... on GameEndedDetail { outcome { winners summary } }
  ... on SeedRevealedDetail { serverSeed }
}`;
const EVENT = `seq type actor payload ${DETAIL}`;

/** Everything typed a caller reads of a game, without a game-specific query. */
const GAME_FIELDS = `id kind status version toAct mySeat
  state {
    __typename
    ... on BackgammonPosition { toAct playerOnRoll bgPhase: phase dice lastTurn { seat dice } }
    ... on ChickenFootTable { toAct turn seat hand round { handSizes yardSize } }
    ... on CerkeState { toAct toMove cerkePhase: phase viewerSide }
  }
  legalMoves {
    __typename
    ... on BackgammonLegalActions { seat types plays { moves { from to } notation } resignLevels }
    ... on ChickenFootLegalActions { seat plays { tile target } canDraw canPass }
    ... on CerkeLegalActions { seat actions { type from via to firstSquare stepDuring colour kind } }
  }
  outcome {
    winners points summary
    detail {
      __typename
      ... on BackgammonOutcome { matchLength finalScore games { winner endedBy } }
      ... on ChickenFootOutcome { cfReason: reason resigned decidedBy roundsPlayed totals }
      ... on CerkeOutcome { sides: winners cerkeReason: reason resignedBy points { IA A } }
    }
  }`;
const GAME = `query($id: ID!) { game(id: $id) { ${GAME_FIELDS} } }`;
const EVENTS = `query($id: ID!) { gameEvents(gameId: $id) { nodes { ${EVENT} } } }`;

/** A move's answer: its events and the whole game after it, typed for the mover. */
const ANSWER = `__typename
  ... on MoveAccepted { seat version events { ${EVENT} } game { ${GAME_FIELDS} } }
  ... on Rejection { code message }`;
const move = (name: string, args = '', vars = '') => `mutation($gameId: ID!, $moveId: String!${vars}) { r: ${name}(gameId: $gameId, moveId: $moveId${args}) { ${ANSWER} } }`;
const BG_ROLL = move('backgammonRoll');
const BG_PLAY = move('backgammonPlay', ', moves: $moves', ', $moves: [BackgammonCheckerMoveInput!]!');
const CF_PLAY = move('chickenFootPlay', ', tile: $tile, target: $target', ', $tile: String!, $target: String!');
const CF_DRAW = move('chickenFootDraw');
const CF_PASS = move('chickenFootPass');
const CERKE_MOVE = move('cerkeMove', ', from: $from, via: $via, to: $to', ', $from: String!, $via: String, $to: String!');
const CERKE_COMPLETE = move('cerkeCompleteStep', ', to: $to', ', $to: String!');
const CERKE_ABANDON = move('cerkeAbandonStep');
const RESIGN = `mutation($gameId: ID!, $moveId: String!) { r: resignGame(gameId: $gameId, moveId: $moveId) { ${ANSWER} } }`;

const CREATED = `__typename ... on GameCreated { game { id ruleset toAct } tokens { seat token } } ... on Rejection { code message }`;
const CREATE_BG = `mutation($input: BackgammonGameInput!) { createBackgammonGame(input: $input) { ${CREATED} } }`;
const CREATE_CERKE = `mutation($input: CerkeGameInput!) { createCerkeGame(input: $input) { ${CREATED} } }`;
const CREATE_CF = `mutation($input: ChickenFootGameInput!) { createChickenFootGame(input: $input) { ${CREATED} } }`;

// ------------------------------------------------------------------ helpers

async function gql(document: string, variables: Record<string, unknown>, token?: string) {
  const res = await t.gql(document, variables, token);
  expect(res.errors).toBeUndefined();
  return res.data;
}

async function created(document: string, input: Record<string, unknown>) {
  const answer = Object.values(await gql(document, { input }))[0] as any;
  expect(answer.__typename).toBe('GameCreated');
  return { id: answer.game.id as string, ruleset: answer.game.ruleset, tokens: answer.tokens.map((x: { token: string }) => x.token) as string[] };
}

/** A move that must be accepted; answers the MoveAccepted. */
async function accepted(document: string, variables: Record<string, unknown>, token: string) {
  const { r } = await gql(document, variables, token);
  expect(r).toMatchObject({ __typename: 'MoveAccepted' });
  return r;
}

/** The typed state agrees with Game.toAct, and a seat's own answer names its seat. */
function expectConsistent(game: any) {
  expect(game.state.toAct).toEqual(game.toAct);
  expect(game.legalMoves.seat).toBe(game.mySeat);
}

const chance = (events: any[]) => events.filter((e) => e.detail?.__typename === 'ChanceDrawnDetail');

// ------------------------------------------------------------------ backgammon

describe('backgammon: typed answers', () => {
  it('plays through typed mutations reading the typed state and legal moves from each answer; dice are pips 1-6', async () => {
    const { id, tokens, ruleset } = await created(CREATE_BG, { ruleset: { matchLength: 0, beavers: 1, openingRoll: 'USE_OPENING_DICE' } });
    expect(ruleset).toMatchObject({ matchLength: 0, beavers: 1, openingRoll: 'use-opening-dice', jacoby: true, maxCube: 64 });

    // One read to start; from then on every move's answer carries the game.
    let game = (await gql(GAME, { id }, tokens[0])).game;
    expect(game.state.__typename).toBe('BackgammonPosition');
    const seen: any[] = [];
    for (let i = 0; i < 12; i++) {
      const seat: number = game.toAct[0];
      const mine = seat === game.mySeat ? game : (await gql(GAME, { id }, tokens[seat])).game;
      expectConsistent(mine);
      expect(mine.legalMoves.__typename).toBe('BackgammonLegalActions');
      const types: string[] = mine.legalMoves.types;
      const answer = types.includes('PLAY')
        ? await accepted(BG_PLAY, { gameId: id, moveId: `m${i}`, moves: mine.legalMoves.plays[0].moves }, tokens[seat])
        : await accepted(BG_ROLL, { gameId: id, moveId: `m${i}` }, tokens[seat]);
      expect(answer.seat).toBe(seat);
      game = answer.game;
      expect(game.version).toBeGreaterThanOrEqual(answer.version);
      expect(game.mySeat).toBe(seat);
      expectConsistent(game);
      expect((await gql(`query($id: ID!) { backgammonPosition(gameId: $id) { toAct } }`, { id })).backgammonPosition.toAct).toEqual(game.toAct);
      seen.push(...answer.events);
      for (const d of [game.state.dice, game.state.lastTurn?.dice].filter(Boolean)) for (const pip of d) expect(pip >= 1 && pip <= 6).toBe(true);
    }
    const actions = seen.filter((e) => e.type === 'ActionTaken');
    expect(actions.map((e) => e.detail.action.__typename)).toContain('BackgammonActionTaken');
    expect(actions.some((e) => e.detail.action.bgType === 'PLAY' && e.detail.action.moves.length > 0)).toBe(true);

    // The replay is typed too: the position as it was after each stored event, at that version.
    const AT = `query($id: ID!, $seq: Int!) { gameStateAt(gameId: $id, seq: $seq) { seq state { __typename ... on BackgammonPosition { version toAct dice } } } }`;
    const final = (await gql(GAME, { id })).game;
    for (const seq of [1, Math.ceil(final.version / 2), final.version]) {
      const at = (await gql(AT, { id, seq })).gameStateAt;
      expect(at.state).toMatchObject({ __typename: 'BackgammonPosition', version: seq });
      if (seq === final.version) expect(at.state.toAct).toEqual(final.toAct);
    }

    // Every roll: the stored payload keeps the drawn values, the detail serves pips.
    const rolls = chance((await gql(EVENTS, { id })).gameEvents.nodes);
    expect(rolls.length).toBeGreaterThan(1);
    for (const e of rolls) {
      expect(['OpeningRoll', 'DiceRolled']).toContain(e.detail.label);
      expect(e.detail.values).toEqual(e.payload.chance.values.map((v: number) => v + 1));
      for (const pip of e.detail.values) expect(pip >= 1 && pip <= 6).toBe(true);
      expect(e.detail).toMatchObject({ hidden: false, commitment: null, source: 'fair' });
    }
  });

  it('serves the typed outcome on Game, in the move answer and as GameEndedDetail', async () => {
    const { id, tokens } = await created(CREATE_BG, { ruleset: { matchLength: 3 } });
    const answer = await accepted(RESIGN, { gameId: id, moveId: 'r' }, tokens[1]);
    expect(answer.game.outcome).toMatchObject({ winners: [0], detail: { __typename: 'BackgammonOutcome', matchLength: 3, games: [{ winner: 0, endedBy: 'FORFEIT' }] } });
    expect(answer.game.toAct).toEqual([]);
    expect(answer.game.state.toAct).toEqual([]);
    const ended = answer.events.find((e: any) => e.type === 'GameEnded');
    // The game tells how it ended; the GameEnded event keeps the rules' own outcome, as the log holds it.
    expect(answer.game.outcome.summary).toBe('Black resigned; White wins');
    expect(ended.detail.outcome).toMatchObject({ winners: [0], summary: expect.stringMatching(/^White wins the 3-point match 3-\d by forfeit$/) });
    expect(answer.events.find((e: any) => e.type === 'Resigned').detail).toEqual({ __typename: 'ResignedDetail', seat: 1 });
  });

  it('checks typed rulesets: resolved options, warnings and refusals', async () => {
    const CHECK = `query($r: BackgammonRulesetInput) { backgammonRulesetCheck(ruleset: $r) { ok message warnings ruleset options { matchLength jacoby maxCube openingRoll resignWhen crawford } } }`;
    const defaults = (await gql(CHECK, {})).backgammonRulesetCheck;
    expect(defaults).toMatchObject({ ok: true, warnings: [], options: { matchLength: 0, jacoby: true, maxCube: 64, openingRoll: 'USE_OPENING_DICE', resignWhen: 'OWN_TURN' } });
    const unlimited = (await gql(CHECK, { r: { maxCube: null, holland: true, resignWhen: 'ANY_TIME' } })).backgammonRulesetCheck;
    expect(unlimited).toMatchObject({ ok: true, options: { maxCube: null, resignWhen: 'ANY_TIME' }, ruleset: { maxCube: null, resignWhen: 'any-time' } });
    expect(unlimited.warnings).toEqual([expect.stringContaining('holland has no effect in money play')]);
    const refused = (await gql(CHECK, { r: { matchLength: 5, jacoby: true } })).backgammonRulesetCheck;
    expect(refused).toMatchObject({ ok: false, options: null, ruleset: null, message: expect.stringContaining('jacoby applies to money play only') });
    // Refused at creation alike, as a Rejection.
    const { createBackgammonGame } = await gql(CREATE_BG, { input: { ruleset: { matchLength: 5, jacoby: true } } });
    expect(createBackgammonGame).toMatchObject({ __typename: 'Rejection', code: 'INVALID_INPUT' });
  });

  it('takes JSON rulesets in either spelling of a choice', async () => {
    for (const openingRoll of ['REROLL_BOTH_DICE', 'reroll-both-dice', 'Reroll_Both_Dice']) {
      const { createGame } = await gql(CREATE, { input: { kind: 'backgammon', ruleset: { openingRoll } } });
      expect(createGame.__typename).toBe('GameCreated');
    }
    const { createGame } = await gql(CREATE, { input: { kind: 'backgammon', ruleset: { openingRoll: 'REROLL' } } });
    expect(createGame).toMatchObject({ __typename: 'Rejection', code: 'INVALID_INPUT' });
  });
});

// ------------------------------------------------------------------ Chicken Foot

describe('Chicken Foot: typed answers', () => {
  it("reads its hand from each move's answer; a draw's tile is typed for the drawer only, a shuffle hidden behind its commitment", async () => {
    const { id, tokens } = await created(CREATE_CF, { ruleset: { players: 2, setMax: 6, handSize: 5 } });
    const viewers = [tokens[0], tokens[1], undefined];
    let game = (await gql(GAME, { id }, tokens[0])).game;
    let drawn: { seat: number; seq: number; tile: string } | null = null;
    for (let i = 0; i < 300 && !drawn && game.status === 'ACTIVE'; i++) {
      const seat: number = game.toAct[0];
      const mine = seat === game.mySeat ? game : (await gql(GAME, { id }, tokens[seat])).game;
      expectConsistent(mine);
      expect(mine.state).toMatchObject({ __typename: 'ChickenFootTable', seat, turn: seat, toAct: [seat] });
      const legal = mine.legalMoves;
      const answer = legal.plays.length
        ? await accepted(CF_PLAY, { gameId: id, moveId: `m${i}`, tile: legal.plays[0].tile, target: legal.plays[0].target }, tokens[seat])
        : await accepted(legal.canDraw ? CF_DRAW : CF_PASS, { gameId: id, moveId: `m${i}` }, tokens[seat]);
      game = answer.game;
      expect(game.mySeat).toBe(seat);
      expect((await gql(`query($id: ID!) { chickenFootTable(gameId: $id) { toAct } }`, { id })).chickenFootTable.toAct).toEqual(game.toAct);
      if (game.status === 'ACTIVE' && game.state.hand) expect(game.state.hand).toHaveLength(game.state.round.handSizes[seat]);
      const draw = answer.events.find((e: any) => e.detail.__typename === 'ActionTakenDetail' && e.detail.action.cfType === 'DRAW');
      if (draw) {
        expect(draw.detail.action.tile).toMatch(/^\d+-\d+$/);
        expect(game.state.hand).toContain(draw.detail.action.tile);
        drawn = { seat, seq: draw.seq, tile: draw.detail.action.tile };
      }
    }
    if (!drawn) throw new Error('no seat drew a tile');

    // The same events read as each seat and as a spectator.
    const served = await Promise.all(viewers.map(async (token) => (await gql(EVENTS, { id }, token)).gameEvents.nodes as any[]));
    served.forEach((events, v) => {
      const draw = events.find((e) => e.seq === drawn!.seq);
      expect(draw.detail).toMatchObject({ __typename: 'ActionTakenDetail', seat: drawn!.seat, action: { __typename: 'ChickenFootActionTaken', cfType: 'DRAW' } });
      expect(draw.detail.action.tile).toBe(v === drawn!.seat ? drawn!.tile : null);
      const shuffle = chance(events).find((e) => e.detail.label === 'TilesShuffled');
      expect(shuffle.detail).toMatchObject({ hidden: true, values: null, commitment: shuffle.payload.chance.commitment });
      expect(shuffle.detail.seen.hand === undefined).toBe(v === 2);
      // A tile played is public: every viewer is served it.
      for (const p of events.filter((e) => e.type === 'ActionTaken' && e.detail.action.cfType === 'PLAY')) expect(p.detail.action.tile).toBe(p.payload.action.tile);
    });

    // Once the game is over every draw is public: the shuffle's values match the commitment served before.
    const commitment = chance(served[2]).find((e) => e.detail.label === 'TilesShuffled').detail.commitment;
    const resigned = await accepted(RESIGN, { gameId: id, moveId: 'r' }, tokens[0]);
    expect(resigned.game.outcome).toMatchObject({ winners: [1], detail: { __typename: 'ChickenFootOutcome', cfReason: 'resigned', resigned: 0 } });
    const after = chance((await gql(EVENTS, { id })).gameEvents.nodes).find((e) => e.detail.label === 'TilesShuffled');
    expect(after.detail.values).toEqual(after.payload.chance.values);
    expect(hashOf(after.detail.values)).toBe(commitment);
    expect(after.detail.commitment).toBe(commitment);
  });

  it('serves typed details over the subscription as a spectator, without hidden values', async () => {
    const { id } = await created(CREATE_CF, { ruleset: { players: 2, setMax: 6, handSize: 5 } });
    const client = createClient({ url: `${t.url.replace('http', 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: {} });
    try {
      const events: any[] = [];
      const subscription = client.iterate({ query: `subscription($id: ID!) { gameEvents(gameId: $id) { ${EVENT} } }`, variables: { id } });
      for await (const msg of subscription) {
        events.push((msg.data as any).gameEvents);
        if (events.some((e) => e.type === 'TilesShuffled')) break;
      }
      expect(events[0].detail).toMatchObject({ __typename: 'GameCreatedDetail', kind: 'chicken-foot', randomSource: 'fair', imported: false });
      const shuffle = events.find((e) => e.type === 'TilesShuffled');
      expect(shuffle.detail).toMatchObject({ __typename: 'ChanceDrawnDetail', hidden: true, values: null });
      expect(shuffle.detail.commitment).toMatch(/^[0-9a-f]{64}$/);
      expect(shuffle.detail.seen.hand).toBeUndefined();
    } finally {
      await client.dispose();
    }
  });

  it('takes ruleset choices in either spelling, in JSON and in overrides', async () => {
    for (const preset of ['MALTA_CROSS', 'malta-cross']) {
      const { createGame } = await gql(CREATE, { input: { kind: 'chicken-foot', ruleset: { preset, players: 2 } } });
      expect(createGame.__typename).toBe('GameCreated');
    }
    const { chickenFootRulesetCheck } = await gql(`query($r: JSON!) { chickenFootRulesetCheck(ruleset: $r) { ok message ruleset } }`, {
      r: { preset: 'MALTA_CROSS', players: 3, drawPolicy: 'UNTIL_PLAYABLE', tieBreak: ['LOWEST_POSITIVE_ROUND'] },
    });
    expect(chickenFootRulesetCheck).toMatchObject({ ok: true, ruleset: { preset: 'malta-cross', drawPolicy: 'untilPlayable', tieBreak: ['lowestPositiveRound'] } });
    const game = await created(CREATE_CF, { ruleset: { players: 2, overrides: { blockedDetection: 'PASS_CYCLE' } } });
    expect(game.ruleset.blockedDetection).toBe('passCycle');
  });
});

// ------------------------------------------------------------------ Cerke

describe('Cerke: typed answers', () => {
  /** A move for the seat to act from its typed legal moves: complete or abandon a pending step, else the first plain move. */
  async function play(id: string, game: any, token: string, i: number) {
    const actions: any[] = game.legalMoves.actions;
    const complete = actions.find((a) => a.type === 'COMPLETE_STEP');
    if (complete) return accepted(CERKE_COMPLETE, { gameId: id, moveId: `m${i}`, to: complete.to }, token);
    if (actions.some((a) => a.type === 'ABANDON_STEP')) return accepted(CERKE_ABANDON, { gameId: id, moveId: `m${i}` }, token);
    const m = actions.find((a) => a.type === 'MOVE' && !a.via) ?? actions.find((a) => a.type === 'MOVE');
    return accepted(CERKE_MOVE, { gameId: id, moveId: `m${i}`, from: m.from, via: m.via, to: m.to }, token);
  }

  it('plays typed moves, reading Game.state (CerkeState) from each answer: toAct is the seat, toMove the side', async () => {
    const { id, tokens, ruleset } = await created(CREATE_CERKE, { ruleset: { profile: 'STRICT', seasons: 1, tamMunMok: 'ALLOWED' } });
    expect(ruleset).toMatchObject({ profile: 'strict', seasons: 1, tamMunMok: 'allowed', whatToSayBeforeCastingSticks: 'exactDestination' });
    let game = (await gql(GAME, { id }, tokens[0])).game;
    for (let i = 0; i < 8; i++) {
      const seat: number = game.toAct[0];
      const mine = seat === game.mySeat ? game : (await gql(GAME, { id }, tokens[seat])).game;
      expectConsistent(mine);
      expect(mine.state).toMatchObject({ __typename: 'CerkeState', toMove: ['IA', 'A'][seat], viewerSide: ['IA', 'A'][seat] });
      const answer = await play(id, mine, tokens[seat], i);
      game = answer.game;
      expectConsistent(game);
      const typed = (await gql(`query($id: ID!) { cerkeState(gameId: $id) { toAct toMove } }`, { id })).cerkeState;
      expect(typed.toAct).toEqual(game.toAct);
      const taken = answer.events.find((e: any) => e.type === 'ActionTaken');
      expect(taken.detail.action).toMatchObject({ __typename: 'CerkeLegalAction', cerkeType: expect.any(String) });
    }
    const casts = chance((await gql(EVENTS, { id })).gameEvents.nodes);
    expect(casts[0].detail.label).toBe('FirstMoverCast');
    for (const e of casts) {
      expect(e.detail.values).toEqual(e.payload.chance.values);
      for (const stick of e.detail.values) expect([0, 1]).toContain(stick);
    }
    const resigned = await accepted(RESIGN, { gameId: id, moveId: 'r' }, tokens[0]);
    expect(resigned.game.outcome).toMatchObject({ winners: [1], detail: { __typename: 'CerkeOutcome', sides: ['A'], cerkeReason: 'RESIGNATION', resignedBy: 'IA' } });
    expect(resigned.game.state).toMatchObject({ toAct: [], toMove: null });
  });

  it('takes the profile as ONLINE or online in a JSON ruleset', async () => {
    for (const profile of ['ONLINE', 'online', 'Strict']) {
      const { createGame } = await gql(`mutation($input: CreateGameInput!) { createGame(input: $input) { ${CREATED} } }`, {
        input: { kind: 'cerke', ruleset: { profile, whatToSayBeforeCastingSticks: 'EXACT_DESTINATION' } },
      });
      expect(createGame.__typename).toBe('GameCreated');
      expect(createGame.game.ruleset).toMatchObject({ profile: profile.toLowerCase(), whatToSayBeforeCastingSticks: 'exactDestination' });
    }
  });

  it('checks typed rulesets: every option resolved, and a warning for each flag set otherwise than the profile', async () => {
    const CHECK = `query($r: CerkeRulesetInput) { cerkeRulesetCheck(ruleset: $r) { ok message warnings ruleset options { profile seasons stepTamIsAHand tamMunMok whatToSayBeforeCastingSticks movingTamImmediatelyAfterTamHasMoved } } }`;
    expect((await gql(CHECK, {})).cerkeRulesetCheck).toMatchObject({
      ok: true,
      warnings: [],
      options: { profile: 'ONLINE', seasons: 4, stepTamIsAHand: false, tamMunMok: 'ALLOWED', whatToSayBeforeCastingSticks: 'DIRECTION', movingTamImmediatelyAfterTamHasMoved: 'FORBIDDEN' },
    });
    const mixed = (await gql(CHECK, { r: { profile: 'STRICT', tamMunMok: 'ALLOWED' } })).cerkeRulesetCheck;
    expect(mixed).toMatchObject({ ok: true, options: { profile: 'STRICT', tamMunMok: 'ALLOWED', stepTamIsAHand: true } });
    expect(mixed.warnings).toEqual([expect.stringContaining('tamMunMok')]);
    expect((await gql(CHECK, { r: { seasons: 3 } })).cerkeRulesetCheck).toMatchObject({ ok: false, options: null, message: expect.stringContaining('seasons') });
  });
});
