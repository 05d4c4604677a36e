import request from 'supertest';
import { DatabaseService } from '../../src/database/database.service.js';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { TournamentService } from '../../src/referee/application/tournament.service.js';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { eventHash } from '../../src/referee/core/stream.js';
import { PostgresTournamentStore } from '../../src/referee/store/postgres-tournament-store.js';
import { type TournamentBundle, verifyTournamentBundle } from '../../src/referee/core/tournament/audit.js';
import { startApp, type TestApp } from '../support/app.js';
import { anotherInstance, type Instance, swissOfTwo } from '../support/instances.js';

/**
 * An organizer's result for a refereed game and the game's own end are one decision: whichever
 * comes first stands in the game and in the tournament alike, and the offline verifier refuses
 * a tournament whose result contradicts its game's end (issue 24, finding 2).
 */
let t: TestApp;
beforeAll(async () => {
  t = await startApp();
}, 120_000);
afterAll(async () => {
  await t?.close();
}, 120_000);

const RACES = 12;
const later = (ms: number) => new Promise((r) => setTimeout(r, Math.max(ms, 0)));
const verify = (bundle: TournamentBundle) => verifyTournamentBundle(t.app.get(EngineRegistry), bundle);

async function exported(id: string): Promise<TournamentBundle> {
  const res = await request(t.app.getHttpServer()).get(`/api/tournaments/${id}/bundle`);
  expect(res.status).toBe(200);
  return JSON.parse(res.text) as TournamentBundle;
}

/** Seat 0 resigns (seat 1 wins) on `seat`'s instance while the organizer enters "seat 0 won" on `organizer`'s: the game and the tournament must tell the same winner. */
async function race(seat: Instance, organizer: Instance, stagger: number): Promise<{ resigned: boolean; entered: boolean }> {
  const { id, organizerToken, game, loser } = await swissOfTwo(organizer, { kind: 'backgammon', ruleset: { matchLength: 1 } });
  const [resigned, entered] = await Promise.all([
    // Each race starts one of the two a little later (`stagger` ms: the resignation when positive, the entry when negative), so they meet at other points of their ways.
    later(stagger).then(() => seat.referee.resign(game.gameId, loser, 'concede')),
    later(-stagger).then(() =>
      organizer.tournaments.recordResult(id, organizerToken, { round: 1, board: 1, outcome: 'WIN_SEAT0', gamePoints: ['1', '0'] }).then(
        () => null,
        (err: { code?: string }) => err,
      ),
    ),
  ]);
  // Whatever the instances' workflows left undone, the next catch-up takes (as the next command would).
  await seat.tournaments.recordGameResult(await seat.referee.game(game.gameId));
  const ended = await organizer.referee.game(game.gameId);
  const result = (await organizer.tournaments.tournament(id)).rounds[0].boards[0].results[game.gameId];
  expect(ended.outcome?.winners).toEqual(result.ranking[0]);
  // Exactly one of them decided the game; the other was told so.
  expect(resigned.accepted).toBe(entered !== null);
  if (entered) expect(entered.code).toBe('RESULT_ALREADY_RECORDED');
  expect(verify(await exported(id))).toMatchObject({ ok: true });
  return { resigned: resigned.accepted, entered: entered === null };
}

describe("an organizer's result racing the game's own end", () => {
  it('leaves the game and the tournament with the same winner, every time, on one instance', async () => {
    const here: Instance = { referee: t.app.get(RefereeService), tournaments: t.app.get(TournamentService) };
    for (let i = 0; i < RACES; i++) await race(here, here, (i - RACES / 2) * 4);
  });

  it('leaves the game and the tournament with the same winner, every time, across two instances', async () => {
    const [a, b] = [anotherInstance(t.app), anotherInstance(t.app)];
    for (let i = 0; i < RACES; i++) await race(a, b, (i - RACES / 2) * 4);
  });

  it('takes one of two different entries for one game sent at once on two instances, and answers two same ones alike', async () => {
    const [a, b] = [anotherInstance(t.app), anotherInstance(t.app)];
    const points = { WIN_SEAT0: ['1', '0'], WIN_SEAT1: ['0', '1'] } as const;
    for (const outcomes of [
      ['WIN_SEAT0', 'WIN_SEAT1'],
      ['WIN_SEAT1', 'WIN_SEAT1'],
    ] as const) {
      const { id, organizerToken, game } = await swissOfTwo(a, { kind: 'backgammon', ruleset: { matchLength: 1 } });
      const answers = await Promise.all(
        [a, b].map((on, i) =>
          on.tournaments.recordResult(id, organizerToken, { round: 1, board: 1, outcome: outcomes[i], gamePoints: [...points[outcomes[i]]] }).then(
            () => 'recorded',
            (err: { code?: string }) => err.code,
          ),
        ),
      );
      expect(answers.filter((x) => x === 'recorded')).toHaveLength(outcomes[0] === outcomes[1] ? 2 : 1);
      if (outcomes[0] !== outcomes[1]) expect(answers).toContain('RESULT_ALREADY_RECORDED');
      const ended = await b.referee.game(game.gameId);
      expect((await b.tournaments.tournament(id)).rounds[0].boards[0].results[game.gameId].ranking[0]).toEqual(ended.outcome?.winners);
      expect(verify(await exported(id))).toMatchObject({ ok: true });
    }
  });

  it("answers an organizer's result that agrees with the game's own end as recorded, and refuses one that does not", async () => {
    const here: Instance = { referee: t.app.get(RefereeService), tournaments: t.app.get(TournamentService) };
    const { id, organizerToken, game, loser } = await swissOfTwo(here, { kind: 'backgammon', ruleset: { matchLength: 1 } });
    expect((await here.referee.resign(game.gameId, loser, 'concede')).accepted).toBe(true);
    await expect(here.tournaments.recordResult(id, organizerToken, { round: 1, board: 1, outcome: 'WIN_SEAT0', gamePoints: ['1', '0'] })).rejects.toMatchObject({
      code: 'RESULT_ALREADY_RECORDED',
    });
    const { points } = (await here.referee.game(game.gameId)).outcome!;
    const same = await here.tournaments.recordResult(id, organizerToken, { round: 1, board: 1, outcome: 'WIN_SEAT1', gamePoints: points.map(String) });
    expect(same.rounds[0].boards[0].results[game.gameId]).toMatchObject({ source: 'game', ranking: [[1], [0]] });
  });
});

/** A process that stops when it would store a tournament's events: what it stored before stays. */
class StoppedAtTournamentAppend extends PostgresTournamentStore {
  override async append(): Promise<void> {
    throw new Error('the process stopped here');
  }
}

/** Who won a board's game, as its result says: the first ranked, or the forfeit's winners. */
const winnersOf = (r: { ranking: number[][]; seats: { kind: string }[] }) => r.ranking[0] ?? r.seats.flatMap((s, i) => (s.kind === 'FORFEIT_WIN' ? [i] : []));

describe("a withdrawal's forfeit racing the game's own end", () => {
  it('leaves the game and the tournament with the same winner, every time, on one instance and across two', async () => {
    const here: Instance = { referee: t.app.get(RefereeService), tournaments: t.app.get(TournamentService) };
    const [a, b] = [anotherInstance(t.app), anotherInstance(t.app)];
    for (const [seat, organizer] of [
      [here, here],
      [a, b],
    ]) {
      for (let i = 0; i < RACES; i++) {
        const stagger = (i - RACES / 2) * 4;
        const { id, organizerToken, game, loser } = await swissOfTwo(organizer, { kind: 'backgammon', ruleset: { matchLength: 1 } });
        // Seat 0 resigns (seat 1 wins) while the organizer withdraws seat 1 (a forfeit seat 0 wins).
        await Promise.all([
          later(stagger).then(() => seat.referee.resign(game.gameId, loser, 'concede')),
          // The game's end, first, ends this one-round tournament: then the withdrawal is refused so.
          later(-stagger).then(() =>
            organizer.tournaments.withdraw(id, organizerToken, game.seats[1], 'left the event').catch((err: { code?: string }) => expect(err.code).toBe('TOURNAMENT_FINISHED')),
          ),
        ]);
        await seat.tournaments.recordGameResult(await seat.referee.game(game.gameId));
        const ended = await organizer.referee.game(game.gameId);
        const result = (await organizer.tournaments.tournament(id)).rounds[0].boards[0].results[game.gameId];
        expect(ended.outcome?.winners).toEqual(winnersOf(result));
        expect(verify(await exported(id))).toMatchObject({ ok: true });
      }
    }
  });
});

describe("an organizer's result whose process stopped after closing its game", () => {
  it('is recorded as entered when the tournament catches up', async () => {
    const here: Instance = { referee: t.app.get(RefereeService), tournaments: t.app.get(TournamentService) };
    const { tournament, organizerToken } = await here.tournaments.create({ kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'swiss', rounds: 2 });
    const id = tournament.tournamentId;
    for (const name of ['Ann', 'Bob']) await here.tournaments.register(id, organizerToken, { name });
    const [game] = (await here.tournaments.pairRound(id, organizerToken, 1)).rounds[0].boards[0].games;
    const stopping = anotherInstance(t.app, new StoppedAtTournamentAppend(t.app.get(DatabaseService)));
    const entry = { round: 1, board: 1, outcome: 'FORFEIT_WIN_SEAT1', reason: 'seat 0 did not come' } as const;
    await expect(stopping.tournaments.recordResult(id, organizerToken, entry)).rejects.toThrow('the process stopped here');
    // The game was closed with the entry (this instance hears of it as other instances' appends); the tournament has no result yet.
    expect((await stopping.referee.game(game.gameId)).outcome?.winners).toEqual([1]);
    while ((await here.referee.game(game.gameId)).status !== 'FINISHED') await new Promise((r) => setTimeout(r, 20));
    expect((await here.tournaments.tournament(id)).rounds[0].boards[0].results[game.gameId]).toBeUndefined();
    // The next command that needs every result takes the missing step: the forfeit, as entered.
    const paired = await here.tournaments.pairRound(id, organizerToken, 2);
    const result = paired.rounds[0].boards[0].results[game.gameId];
    expect(result).toMatchObject({ source: 'organizer', reason: 'seat 0 did not come', ranking: [] });
    expect(result.seats.map((s) => s.kind)).toEqual(['FORFEIT_LOSS', 'FORFEIT_WIN']);
    // The organizer's retry is answered with the tournament as it is.
    expect((await here.tournaments.recordResult(id, organizerToken, entry)).version).toBe(paired.version);
  });
});

describe('the offline verifier', () => {
  it("says INVALID when a board's result contradicts its game's end", async () => {
    const here: Instance = { referee: t.app.get(RefereeService), tournaments: t.app.get(TournamentService) };
    const { tournament, organizerToken } = await here.tournaments.create({ kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'swiss', rounds: 2 });
    const id = tournament.tournamentId;
    const tokens = new Map<string, string>();
    for (const name of ['Ann', 'Bob']) {
      const r = await here.tournaments.register(id, organizerToken, { name });
      tokens.set(r.participantId, r.participantToken);
    }
    const [game] = (await here.tournaments.pairRound(id, organizerToken, 1)).rounds[0].boards[0].games;
    const loser = tokens.get(game.seats[0])!;
    // Seat 0 resigns: seat 1 won the game, and the tournament records it.
    expect((await here.referee.resign(game.gameId, loser, 'concede')).accepted).toBe(true);
    const bundle = await exported(id);
    expect(verify(bundle)).toMatchObject({ ok: true });
    // The stored result turned into the organizer's "seat 0 won" (the hashes made again): the board contradicts its game.
    const at = bundle.events.findIndex((e) => e.type === 'ResultRecorded');
    const payload = bundle.events[at].payload as Record<string, unknown> & { seats: { participantId: string }[] };
    const opposite = {
      ...payload,
      source: 'organizer',
      seats: payload.seats.map((s, i) => ({ participantId: s.participantId, kind: 'PLAYED', gamePoints: i === 0 ? '1' : '0' })),
      ranking: [[0], [1]],
      head: null,
      record: null,
      reason: null,
    };
    const events = bundle.events.map((e, i) => (i === at ? { ...e, payload: opposite } : { ...e }));
    for (let k = at; k < events.length; k++) {
      if (k > at) events[k].prevHash = events[k - 1].hash;
      events[k].hash = eventHash(id, events[k]);
    }
    const last = events[events.length - 1];
    const verdict = verify({ ...bundle, events, head: { seq: last.seq, hash: last.hash } });
    expect(verdict).toMatchObject({ ok: false, badSeq: events[at].seq });
    expect(verdict.problem).toMatch(/contradicts/);
  });
});
