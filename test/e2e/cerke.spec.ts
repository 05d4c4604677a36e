import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { seededRandom } from '../../src/engines/kit/index.js';
import { startApp, type TestApp } from '../support/app.js';
import { CREATE, GAME, VERIFY } from '../support/queries.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(async () => {
  await t?.close();
});

const FIXTURES = 'test/fixtures/cerke';
const http = () => request(t.app.getHttpServer());

const HAND = 'name flash value';
const STATE_FIELDS = `gameId version status viewerSide profile seasonCount stake toMove phase tam2 tam2MovedLastTurn
  season { number name firstMover } points { IA A } board { square kind colour side }
  capturedPiles { IA { pieces { kind colour } hands { ${HAND} } score } A { pieces { kind colour } hands { ${HAND} } score } }
  pendingDecision {
    __typename
    ... on CerkeDeclarationPending { side hands { ${HAND} } handValue pointsIfSeasonEnds stakeIfContinued }
    ... on CerkeStepCompletionPending { side from via planned cast completions }
  }
  lastCast { purpose casts { side sticks value } }
  steppingOnTam2ThisSeason { side points }
  seasonResults { season name firstMover endedBy { how side } hands { ${HAND} } handValue stake pointsDeclared pointsMoved pointsAfter { IA A } }
  result { winners reason resignedBy }`;
const ACTION_FIELDS = 'type from via to firstSquare stepDuring colour kind';
/** The state and the caller's legal actions in one request. */
const TURN = `query($id: ID!) { cerkeState(gameId: $id) { ${STATE_FIELDS} } cerkeLegalActions(gameId: $id) { ${ACTION_FIELDS} } }`;
const RECORD = `query($id: ID!) { cerkeRecord(gameId: $id) }`;

/** A typed move mutation document; every one answers a MoveResult. */
const mutation = (name: string, fields: Record<string, string> = {}) => {
  const vars = Object.entries(fields)
    .map(([f, type]) => `, $${f}: ${type}`)
    .join('');
  const args = Object.keys(fields)
    .map((f) => `, ${f}: $${f}`)
    .join('');
  return `mutation($gameId: ID!, $moveId: String!, $expectedVersion: Int${vars}) {
    r: ${name}(gameId: $gameId, moveId: $moveId, expectedVersion: $expectedVersion${args}) {
      __typename
      ... on MoveAccepted { seat version status result events { seq type actor payload } }
      ... on Rejection { code message currentVersion }
    }
  }`;
};
const MUTATIONS: Record<string, string> = {
  MOVE: mutation('cerkeMove', { from: 'String!', via: 'String', to: 'String!' }),
  COMPLETE_STEP: mutation('cerkeCompleteStep', { to: 'String!' }),
  ABANDON_STEP: mutation('cerkeAbandonStep'),
  DROP: mutation('cerkeDrop', { colour: 'CerkeColour!', kind: 'CerkeKind!', to: 'String!' }),
  MOVE_TAM2: mutation('cerkeMoveTam2', { firstSquare: 'String!', to: 'String!', via: 'String', stepDuring: 'CerkeStepDuring' }),
  CONTINUE: mutation('cerkeDeclareContinue'),
  END_SEASON: mutation('cerkeDeclareEndSeason'),
};

type Side = 'IA' | 'A';
interface Action {
  type: string;
  from?: string | null;
  via?: string | null;
  to?: string | null;
  firstSquare?: string | null;
  stepDuring?: string | null;
  colour?: string | null;
  kind?: string | null;
}
interface State {
  version: number;
  status: string;
  toMove: Side | null;
  phase: string;
  stake: number;
  tam2: string | null;
  points: { IA: number; A: number };
  season: { number: number; name: string; firstMover: Side | null };
  board: { square: string; kind: string; colour: string; side: Side }[];
  capturedPiles: Record<Side, { pieces: { kind: string; colour: string }[]; hands: { name: string; flash: boolean; value: number }[]; score: number }>;
  pendingDecision: Record<string, any> | null;
  lastCast: { purpose: string; casts: { side: Side; sticks: number[]; value: number }[] } | null;
  seasonResults: Record<string, any>[];
  result: { winners: Side[]; reason: string; resignedBy: Side | null } | null;
  [field: string]: unknown;
}

interface Game {
  id: string;
  /** Seat tokens by side: IA is seat 0, A seat 1. */
  tokens: Record<Side, string>;
}

async function newGame(ruleset: Record<string, unknown> = {}): Promise<Game> {
  const res = await t.gql(CREATE, { input: { kind: 'cerke', ruleset, seats: [{ name: 'Ia' }, { name: 'Aa' }] } });
  const created = res.data.createGame;
  expect(created).toMatchObject({ __typename: 'GameCreated', game: { status: 'ACTIVE' } });
  const token = (seat: number) => created.tokens.find((x: { seat: number }) => x.seat === seat).token;
  return { id: created.game.id, tokens: { IA: token(0), A: token(1) } };
}

async function turn(game: Game, side?: Side): Promise<{ state: State; legal: Action[] }> {
  const res = await t.gql(TURN, { id: game.id }, side && game.tokens[side]);
  expect(res.errors).toBeUndefined();
  return { state: res.data.cerkeState, legal: res.data.cerkeLegalActions };
}

const state = async (game: Game, side?: Side): Promise<State> => (await turn(game, side)).state;

let moveCounter = 0;
/** Sends `action` through its typed mutation with the side's token. */
async function play(game: Game, side: Side, action: Action, expectedVersion?: number) {
  const { type, ...fields } = action;
  const res = await t.gql(MUTATIONS[type], { gameId: game.id, moveId: `m${++moveCounter}`, expectedVersion, ...fields }, game.tokens[side]);
  expect(res.errors).toBeUndefined();
  return res.data.r;
}

async function accepted(game: Game, side: Side, action: Action, expectedVersion?: number) {
  const r = await play(game, side, action, expectedVersion);
  expect({ action, typename: r.__typename, message: r.message }).toEqual({ action, typename: 'MoveAccepted', message: undefined });
  return r;
}

const castEvents = (r: { events: { type: string; payload: any }[] }) => r.events.filter((e) => e.type === 'SticksCast');
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

interface PlayedGame {
  game: Game;
  final: State;
  /** The outcome as the last move's result carried it. */
  result: any;
  used: Set<string>;
  sticksCastEvents: number;
}

/**
 * Plays a two-season game over GraphQL with each side's own token, choosing from the caller's
 * legal actions: one drop and one Tam2 move as soon as possible, else captures first (so hands
 * come soon). It never steps on Tam2 (5-point payments) nor captures a King (a wildcard that
 * makes many hands at once), either of which could run the points out in the first season. The
 * first declaration of the last season is ty mok1 (continue); every other is ta xot1.
 */
async function playGame(seed: number): Promise<PlayedGame> {
  const game = await newGame({ seasons: 2 });
  const rand = seededRandom(seed);
  const pick = <T>(xs: T[]): T => xs[rand(xs.length)];
  const used = new Set<string>();
  let sticksCastEvents = 0;
  let result: unknown = null;
  for (let i = 0; i < 600; i++) {
    const spectator = await state(game);
    if (spectator.status === 'FINISHED') {
      return { game, final: spectator, result, used, sticksCastEvents };
    }
    const side = spectator.toMove!;
    const { state: s, legal: all } = await turn(game, side);
    expect(s.viewerSide).toBe(side);
    expect(all.length).toBeGreaterThan(0);
    const kings = new Set(s.board.filter((p) => p.kind === 'KING').map((p) => p.square));
    const legal = all.filter((a) => !(a.to && kings.has(a.to) && (a.type === 'MOVE' || a.type === 'COMPLETE_STEP')));
    let action: Action;
    if (s.phase === 'DECLARATION') {
      const decision = s.pendingDecision!;
      expect(decision).toMatchObject({ __typename: 'CerkeDeclarationPending', side, pointsIfSeasonEnds: decision.handValue * s.stake, stakeIfContinued: s.stake * 2 });
      expect(decision.hands.length).toBeGreaterThan(0);
      expect(legal.map((a) => a.type).sort()).toEqual(['CONTINUE', 'END_SEASON']);
      action = { type: s.season.number === 2 && !used.has('CONTINUE') ? 'CONTINUE' : 'END_SEASON' };
    } else if (s.phase === 'STEP_COMPLETION') {
      expect(s.pendingDecision).toMatchObject({ __typename: 'CerkeStepCompletionPending', side });
      action = pick(legal);
    } else {
      const owner = new Map(s.board.map((p) => [p.square, p.side]));
      const moves = legal.filter((a) => a.type === 'MOVE' && a.via !== s.tam2);
      const captures = moves.filter((a) => owner.get(a.to!) && owner.get(a.to!) !== side);
      const drops = legal.filter((a) => a.type === 'DROP');
      const tam2Moves = legal.filter((a) => a.type === 'MOVE_TAM2');
      if (drops.length > 0 && !used.has('DROP')) action = drops[0];
      else if (tam2Moves.length > 0 && !used.has('MOVE_TAM2')) action = tam2Moves.find((a) => a.via) ?? tam2Moves[0];
      else if (captures.length > 0) action = pick(captures);
      else action = pick(moves);
    }
    const r = await accepted(game, side, action, s.version);
    expect(r.seat).toBe(side === 'IA' ? 0 : 1);
    used.add(action.type);
    sticksCastEvents += castEvents(r).length;
    if (action.type === 'CONTINUE') expect((await state(game)).stake).toBe(s.stake * 2);
    if (r.status === 'FINISHED') result = r.result;
  }
  throw new Error('the game did not end in 600 actions');
}

/** The fair sticks still decide much; a game whose points ran out in its first season is played again. */
async function playTwoSeasons(): Promise<PlayedGame> {
  for (const seed of [7, 8, 9]) {
    const played = await playGame(seed);
    if (played.final.seasonResults.length === 2) return played;
  }
  throw new Error('three games in a row ended in their first season');
}
let twoSeasons: Promise<PlayedGame> | null = null;
/** The two-season game, played once and shared by the tests that look at it. */
const playedGame = () => (twoSeasons ??= playTwoSeasons());

describe('Cerke over GraphQL', () => {
  it('plays a two-season game with seat tokens through the typed mutations, including ty mok1', async () => {
    const { game, final, result, used, sticksCastEvents } = await playedGame();
    for (const type of ['MOVE', 'DROP', 'MOVE_TAM2', 'CONTINUE', 'END_SEASON']) expect(used).toContain(type);
    expect(sticksCastEvents).toBeGreaterThan(0);

    expect(final).toMatchObject({ status: 'FINISHED', phase: 'GAME_OVER', toMove: null, pendingDecision: null, seasonCount: 2 });
    expect(final.points.IA + final.points.A).toBe(40);
    expect(final.seasonResults).toHaveLength(2);
    final.seasonResults.forEach((season, i) => {
      expect(season).toMatchObject({ season: i + 1, name: ['Spring', 'Summer'][i], endedBy: { how: 'END_SEASON' } });
      expect(season.pointsDeclared).toBe(season.handValue * season.stake);
      expect(season.hands.length).toBeGreaterThan(0);
    });
    // ty mok1 in the last season doubled its stake.
    expect(final.seasonResults[1].stake).toBe(2);
    expect(final.seasonResults[1].pointsAfter).toEqual(final.points);
    const winners: Side[] = final.points.IA === final.points.A ? ['IA', 'A'] : [final.points.IA > final.points.A ? 'IA' : 'A'];
    const ranOut = final.points.IA === 0 || final.points.A === 0;
    expect(final.result).toEqual({ winners, reason: ranOut ? 'POINTS_RAN_OUT' : 'LAST_SEASON', resignedBy: null });

    // The last move's result is the engine's outcome: per-season results and points by side.
    expect(result.points).toEqual([final.points.IA, final.points.A]);
    expect(result.details.points).toEqual(final.points);
    expect(result.details.seasons.map((s: any) => [s.endedBy.side, s.stake, s.pointsMoved])).toEqual(final.seasonResults.map((s) => [s.endedBy.side, s.stake, s.pointsMoved]));

    const verdict = (await t.gql(VERIFY, { gameId: game.id })).data.verifyGame;
    expect(verdict).toMatchObject({ ok: true, badSeq: null, fairnessChecked: true });
    expect(verdict.drawsRecomputed).toBeGreaterThan(0);
  });

  it('casts the sticks for a stepping move and lets the mover abandon or complete the step', async () => {
    const game = await newGame();
    // Each side's Archer steps on its own Pawn; the leg after it is limited by the sticks.
    const archerStep: Record<Side, Action> = { IA: { type: 'MOVE', from: 'MAU', via: 'MAI', to: 'MY' }, A: { type: 'MOVE', from: 'ME', via: 'MI', to: 'MU' } };
    let abandoned = false;
    for (let i = 0; i < 12; i++) {
      const before = await state(game);
      const side = before.toMove!;
      const r = await accepted(game, side, archerStep[side]);
      const [cast] = castEvents(r);
      expect(cast.payload.chance).toMatchObject({ ranges: [2, 2, 2, 2, 2], source: 'fair' });
      const value = sum(cast.payload.chance.values);
      const after = await state(game);
      expect(after.lastCast).toEqual({ purpose: 'STEPPING', casts: [{ side, sticks: cast.payload.chance.values, value }] });
      if (value === 0) {
        // Nothing to complete: the move failed and the turn passed.
        expect(after.toMove).not.toBe(side);
        continue;
      }
      const decision = after.pendingDecision!;
      expect(decision).toMatchObject({ __typename: 'CerkeStepCompletionPending', side, from: archerStep[side].from, via: archerStep[side].via, planned: archerStep[side].to, cast: value });
      expect(decision.completions).toContain(archerStep[side].to);
      expect(after.toMove).toBe(side);
      if (!abandoned) {
        await accepted(game, side, { type: 'ABANDON_STEP' });
        const left = await state(game);
        expect(left.board.find((p) => p.square === archerStep[side].from)).toMatchObject({ kind: 'ARCHER', side });
        expect(left.toMove).not.toBe(side);
        abandoned = true;
        continue;
      }
      const to = decision.completions.at(-1);
      await accepted(game, side, { type: 'COMPLETE_STEP', to });
      const done = await state(game);
      expect(done.board.find((p) => p.square === archerStep[side].from)).toBeUndefined();
      expect(done.board.find((p) => p.square === to)).toMatchObject({ kind: 'ARCHER', side });
      return;
    }
    throw new Error('no stepping cast allowed a completion in 12 turns');
  });

  it('moves Tam2 stepping on a piece, and refuses the other side moving it straight back', async () => {
    const game = await newGame();
    const first = await state(game);
    const side = first.toMove!;
    const other: Side = side === 'IA' ? 'A' : 'IA';
    await accepted(game, side, { type: 'MOVE_TAM2', firstSquare: 'TU', via: 'ZI', to: 'ZE', stepDuring: 'SECOND_HALF' }, first.version);
    const moved = await state(game);
    expect(moved).toMatchObject({ tam2: 'ZE', tam2MovedLastTurn: true, toMove: other });
    const back = await play(game, other, { type: 'MOVE_TAM2', via: 'ZI', firstSquare: 'ZU', to: 'ZO', stepDuring: 'FIRST_HALF' });
    expect(back).toMatchObject({ __typename: 'Rejection', code: 'ILLEGAL_MOVE', currentVersion: moved.version });
    expect(back.message).toMatch(/may not move again right away/);
    const incomplete = await play(game, other, { type: 'MOVE_TAM2', firstSquare: 'ZU', to: 'ZO', via: 'ZI' });
    expect(incomplete).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('stepDuring') });
  });

  it('refuses an illegal move, a move out of turn and a declaration with none pending, changing nothing', async () => {
    const game = await newGame();
    const { state: before, legal } = await turn(game, (await state(game)).toMove!);
    const side = before.toMove!;
    const other: Side = side === 'IA' ? 'A' : 'IA';
    const king = side === 'IA' ? 'ZIA' : 'ZA';
    const theirPawn = side === 'IA' ? { from: 'KI', to: 'KU' } : { from: 'KAI', to: 'KY' };
    const duel = (await t.gql(CREATE, { input: { kind: 'duel', ruleset: { cards: 12, handSize: 3 } } })).data.createGame;
    const cases: { side: Side; action: Action; code: string; message: RegExp; gameId?: string }[] = [
      { side, action: { type: 'MOVE', from: king, to: 'ZU' }, code: 'ILLEGAL_MOVE', message: new RegExp(`King on ${king} .* cannot reach ZU`) },
      { side, action: { type: 'MOVE', from: 'ZO', to: 'ZU' }, code: 'ILLEGAL_MOVE', message: /Tam2 moves with a moveTam2 action/ },
      { side, action: { type: 'MOVE', ...theirPawn }, code: 'ILLEGAL_MOVE', message: new RegExp(`belongs to the ${other} side`) },
      { side, action: { type: 'DROP', colour: 'RED', kind: 'KING', to: 'ZU' }, code: 'ILLEGAL_MOVE', message: /captured pile holds no red King/ },
      { side: other, action: { type: 'MOVE', ...theirPawn }, code: 'NOT_YOUR_TURN', message: new RegExp(`${side} side's turn`) },
      { side: other, action: { type: 'END_SEASON' }, code: 'NOT_YOUR_TURN', message: new RegExp(`${side} side's turn`) },
      { side, action: { type: 'CONTINUE' }, code: 'NO_PENDING_DECISION', message: /nothing to declare/ },
      { side, action: { type: 'END_SEASON' }, code: 'NO_PENDING_DECISION', message: /nothing to declare/ },
      { side, action: { type: 'ABANDON_STEP' }, code: 'NO_PENDING_DECISION', message: /no stepping move/ },
      { side, action: { type: 'COMPLETE_STEP', to: 'MY' }, code: 'NO_PENDING_DECISION', message: /no stepping move/ },
      { side, action: { type: 'MOVE', from: 'QQ', to: 'ZU' }, code: 'INVALID_INPUT', message: /"from" must be a square/ },
      { side, action: legal[0], code: 'INVALID_INPUT', message: /is a duel game, not cerke/, gameId: duel.game.id },
    ];
    for (const [i, c] of cases.entries()) {
      const { type, ...fields } = c.action;
      const res = await t.gql(MUTATIONS[type], { gameId: c.gameId ?? game.id, moveId: `bad-${i}`, ...fields }, game.tokens[c.side]);
      const r = res.data.r;
      expect({ i, typename: r.__typename, code: r.code }).toEqual({ i, typename: 'Rejection', code: c.code });
      expect(r.message).toMatch(c.message);
      if (!c.gameId) expect(r.currentVersion).toBe(before.version);
    }
    const spectator = await play({ ...game, tokens: { IA: '', A: '' } }, side, legal[0]);
    expect(spectator).toMatchObject({ __typename: 'Rejection', code: 'UNAUTHORIZED' });
    const after = await turn(game, side);
    expect(after.state).toEqual(before);
    expect(after.legal).toEqual(legal);
    expect((await t.gql(GAME, { id: game.id })).data.game.version).toBe(before.version);
  });

  it('answers queries for the caller: legal actions only for the side to move, and typed errors', async () => {
    const game = await newGame();
    const s = await state(game);
    const other: Side = s.toMove === 'IA' ? 'A' : 'IA';
    expect(s).toMatchObject({
      profile: 'ONLINE',
      seasonCount: 4,
      season: { number: 1, name: 'Spring', firstMover: s.toMove },
      stake: 1,
      points: { IA: 20, A: 20 },
      tam2: 'ZO',
      phase: 'MOVE',
      viewerSide: null,
    });
    expect(s.board).toHaveLength(48);
    expect(s.lastCast!.purpose).toBe('FIRST_MOVER');
    expect(s.lastCast!.casts.map((c) => c.side)).toEqual(['IA', 'A']);
    const [ia, a] = s.lastCast!.casts.map((c) => c.value);
    expect(s.toMove).toBe(ia > a ? 'IA' : 'A');
    expect((await turn(game, other)).legal).toEqual([]);
    expect((await turn(game)).legal).toEqual([]);
    const mover = await turn(game, s.toMove!);
    expect(mover.legal.map((x) => x.type)).toContain('MOVE_TAM2');
    expect(mover.legal.filter((x) => x.type === 'MOVE').length).toBeGreaterThan(20);
    // The same list as the generic API's action JSON, typed.
    const generic = (await t.gql(GAME, { id: game.id }, game.tokens[s.toMove!])).data.game.legalActions;
    expect(mover.legal.map((x) => [x.type, x.from, x.via ?? undefined, x.to, x.firstSquare ?? undefined])).toEqual(
      generic.map((x: Action) => [x.type.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase(), x.from ?? null, x.via, x.to ?? null, x.firstSquare]),
    );

    const missing = await t.gql(TURN, { id: 'nope' });
    expect(missing.errors[0].extensions.code).toBe('NOT_FOUND');
    const duel = (await t.gql(CREATE, { input: { kind: 'duel', ruleset: { cards: 12, handSize: 3 } } })).data.createGame;
    const notCerke = await t.gql(RECORD, { id: duel.game.id });
    expect(notCerke.errors[0]).toMatchObject({ message: expect.stringContaining('duel game, not cerke'), extensions: { code: 'INVALID_INPUT' } });
  });
});

describe('Cerke records', () => {
  /** How records write the hands of the import answer (the engine's outcome JSON). */
  const HAND_CHARS: Record<string, string> = {
    Unbeatable: '無抗行処',
    SocialOrder: '筆兵無傾',
    Culture: '地心',
    Cavalry: '馬弓兵',
    Attack: '行行',
    King: '王',
    Animals: '獣',
    Army: '戦集',
    Comrades: '助友',
    DeadlyArmy: '闇戦之集',
  };
  const written = (h: { name: string; flash: boolean }) => (h.flash && h.name !== 'King' ? '同色' : '') + HAND_CHARS[h.name];
  const records = readdirSync(FIXTURES).filter((f) => f.endsWith('.txt'));
  const importText = (text: string) => http().post('/api/games/import?kind=cerke').set('content-type', 'text/plain').send(text);

  it('has an expected file for every real record', () => {
    expect(records.length).toBeGreaterThanOrEqual(4);
    for (const name of records) expect(readdirSync(FIXTURES)).toContain(name.replace(/\.txt$/, '.expected.json'));
  });

  it.each(records)('imports %s over REST with its season results and final points', async (name) => {
    const expected = JSON.parse(readFileSync(join(FIXTURES, name.replace(/\.txt$/, '.expected.json')), 'utf8'));
    const res = await importText(readFileSync(join(FIXTURES, name), 'utf8'));
    expect(res.status).toBe(201);
    const { result } = res.body;
    expect(res.body.status).toBe('FINISHED');
    expect(result.details.points).toEqual(expected.final_points);
    expect(result.points).toEqual([expected.final_points.IA, expected.final_points.A]);
    expect(result.winners).toEqual([expected.final_points.IA > expected.final_points.A ? 0 : 1]);
    expect(result.summary).toMatch(new RegExp(`^${expected.result.split(' ')[0]} wins`));
    expect(result.details.seasons).toHaveLength(expected.season_count);
    expected.seasons.forEach((season: Record<string, any>, i: number) => {
      const got = result.details.seasons[i];
      expect(got).toMatchObject({
        season: season.season,
        firstMover: season.first_mover,
        endedBy: { how: 'endSeason', side: season.winner },
        stake: season.stake,
        pointsDeclared: season.points_declared,
        pointsMoved: season.points_exchanged,
        pointsAfter: season.points_after,
      });
      expect(got.hands.map(written).sort()).toEqual([...season.declarations.at(-1).hands].sort());
    });
    expect((await t.gql(VERIFY, { gameId: res.body.id })).data.verifyGame).toMatchObject({ ok: true, badSeq: null });
  });

  it('refuses a corrupted record, naming its first illegal move', async () => {
    const text = readFileSync(join(FIXTURES, 'cerke_online_kiaak_parser-case1-2022-05-31.txt'), 'utf8');
    // The King steps one square: ZA to ZO is four rows. A later move is broken too.
    const corrupted = text.replace('ZA王ZE無撃裁', 'ZA王ZO無撃裁').replace('ZI船ZEZA橋四手赤王', 'ZI船ZEZA橋一手赤王');
    expect(corrupted).not.toBe(text);
    const res = await importText(corrupted);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_INPUT');
    expect(res.body.error.message).toMatch(/^season 1, move 6 \(A\): ZA王ZO無撃裁: the King on ZA .*cannot reach ZO/);
    const gql = await t.gql(`mutation($record: String!) { importGame(kind: "cerke", record: $record) { __typename ... on Rejection { code message } } }`, { record: corrupted });
    expect(gql.data.importGame).toEqual({ __typename: 'Rejection', code: 'INVALID_INPUT', message: res.body.error.message });
  });

  it('round-trips a refereed game: GET record, import, same seasons and final points', async () => {
    const { game, final, result } = await playedGame();
    const rest = await http().get(`/api/games/${game.id}/record`);
    expect(rest.status).toBe(200);
    expect(rest.headers['content-type']).toMatch(/^text\/plain/);
    expect((await t.gql(RECORD, { id: game.id })).data.cerkeRecord).toBe(rest.text);
    expect(rest.text.split('\n').slice(0, 6)).toEqual([
      '{一位色:' + final.seasonResults.map((s) => (s.firstMover === 'IA' ? '黒' : '赤')).join('') + '}',
      '{始時:}',
      '{終時:}',
      '{ruleset:seasons=2}',
      '{黒名:Ia}',
      '{赤名:Aa}',
    ]);
    expect(rest.text).toContain('再行');

    const imported = await importText(rest.text);
    expect(imported.status).toBe(201);
    expect(imported.body.result.details.points).toEqual(final.points);
    expect(imported.body.result.details.seasons).toEqual(result.details.seasons);
    const again = (await t.gql(GAME, { id: imported.body.id })).data.game;
    expect(again).toMatchObject({ status: 'FINISHED', seats: [{ name: 'Ia' }, { name: 'Aa' }] });
    expect(await state({ id: imported.body.id, tokens: { IA: '', A: '' } })).toMatchObject({ seasonCount: 2, points: final.points, seasonResults: final.seasonResults });
    expect((await t.gql(VERIFY, { gameId: imported.body.id })).data.verifyGame.ok).toBe(true);
  });

  it('round-trips a resigned game', async () => {
    const game = await newGame();
    const side = (await state(game)).toMove!;
    await accepted(game, side, { type: 'MOVE_TAM2', firstSquare: 'TU', via: 'ZI', to: 'ZE', stepDuring: 'SECOND_HALF' });
    const resign = `mutation($gameId: ID!) { resignGame(gameId: $gameId, moveId: "resign") { __typename ... on MoveAccepted { status result } } }`;
    const resigned = (await t.gql(resign, { gameId: game.id }, game.tokens.A)).data.resignGame;
    expect(resigned).toMatchObject({ __typename: 'MoveAccepted', status: 'FINISHED', result: { winners: [0], details: { reason: 'resignation', resignedBy: 'A' } } });
    expect(await state(game)).toMatchObject({ result: { winners: ['IA'], reason: 'RESIGNATION', resignedBy: 'A' }, seasonResults: [{ endedBy: { how: 'RESIGNATION', side: 'A' } }] });

    const text = (await t.gql(RECORD, { id: game.id })).data.cerkeRecord;
    const imported = await importText(text);
    expect(imported.status).toBe(201);
    expect(imported.body.result).toEqual(resigned.result);
  });
});
