import { DatabaseService } from '../../src/database/database.service.js';
import { PostgresTournamentStore } from '../../src/referee/store/postgres-tournament-store.js';
import { startApp, type TestApp } from '../support/app.js';
import { anotherInstance, swissOfTwo } from '../support/instances.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(async () => {
  await t?.close();
});

const instance = () => anotherInstance(t.app);

describe('tournaments with several instances on one database', () => {
  it("stores a refereed game's result exactly once when every instance records it at the same time", async () => {
    const [a, b, c] = [instance(), instance(), instance()];
    const { id, game, loser } = await swissOfTwo(a, { kind: 'backgammon', ruleset: { matchLength: 1 } }, b);
    // Seat 0 concedes on yet another instance: the game ends there.
    const conceded = await c.referee.resign(game.gameId, loser, 'concede');
    expect(conceded.accepted).toBe(true);
    const ended = await c.referee.game(game.gameId);
    const settled = await Promise.all([a, b, c, a, b].map((i) => i.tournaments.recordGameResult(ended)));
    const events = await a.tournaments.events(id);
    expect(events.filter((e) => e.type === 'ResultRecorded')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'TournamentFinished')).toHaveLength(1);
    expect(settled.every((s) => s.version <= events.length)).toBe(true);
    const finished = await b.tournaments.tournament(id);
    expect(finished.finished).toBe(true);
    expect(finished.ranking?.find((r) => r.participantId === game.seats[1])?.rank).toBe(1);
  });

  it("keeps a game's own result when its loser withdraws before the result reached the tournament", async () => {
    const [a, b, c] = [instance(), instance(), instance()];
    const { tournament, organizerToken } = await a.tournaments.create({ kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'swiss', rounds: 2 });
    const id = tournament.tournamentId;
    const tokens = new Map<string, string>();
    for (const name of ['Ann', 'Bob', 'Cid', 'Dee']) {
      const r = await a.tournaments.register(id, organizerToken, { name });
      tokens.set(r.participantId, r.participantToken);
    }
    const paired = await a.tournaments.pairRound(id, organizerToken, 1);
    const [game] = paired.rounds[0].boards[0].games;
    // The game ends on one instance, whose workflow has not told the tournament yet when the organizer withdraws the loser on another.
    expect((await c.referee.resign(game.gameId, tokens.get(game.seats[0])!, 'concede')).accepted).toBe(true);
    const withdrawn = await b.tournaments.withdraw(id, organizerToken, game.seats[0], 'left the event');
    const result = withdrawn.rounds[0].boards[0].results[game.gameId];
    expect(result).toMatchObject({ source: 'game', ranking: [[1], [0]] });
    expect(result.seats.map((s) => s.kind)).toEqual(['PLAYED', 'PLAYED']);
  });

  it("refuses a participant token outside its tournament, and an organizer's token as a seat", async () => {
    const a = instance();
    const one = await a.tournaments.create({ kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'swiss', rounds: 1 });
    const two = await a.tournaments.create({ kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'swiss', rounds: 1 });
    const stranger = await a.tournaments.register(two.tournament.tournamentId, two.organizerToken, { name: 'Stranger' });
    for (const name of ['Ann', 'Bob']) await a.tournaments.register(one.tournament.tournamentId, one.organizerToken, { name });
    await expect(a.tournaments.pairRound(one.tournament.tournamentId, stranger.participantToken, 1)).rejects.toMatchObject({ code: 'NOT_IN_TOURNAMENT' });
    const paired = await a.tournaments.pairRound(one.tournament.tournamentId, one.organizerToken, 1);
    const [game] = paired.rounds[0].boards[0].games;
    expect(await a.referee.resign(game.gameId, stranger.participantToken, 'x')).toMatchObject({ accepted: false, code: 'UNAUTHORIZED' });
    expect(await a.referee.resign(game.gameId, one.organizerToken, 'y')).toMatchObject({ accepted: false, code: 'UNAUTHORIZED' });
    // Nothing changed: the game is still being played.
    expect((await a.referee.game(game.gameId)).status).toBe('ACTIVE');
  });
});

describe("a round's games are stored with its pairing, all or nothing", () => {
  it('stores neither the pairing nor any game when one of the games cannot be stored', async () => {
    const a = instance();
    const { tournament, organizerToken } = await a.tournaments.create({ kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'swiss', rounds: 1 });
    const id = tournament.tournamentId;
    for (const name of ['Ann', 'Bob', 'Cid', 'Dee']) await a.tournaments.register(id, organizerToken, { name });
    const store = new PostgresTournamentStore(t.app.get(DatabaseService));
    const before = await store.version(id);
    const existing = await a.referee.createGame({ kind: 'backgammon' });
    const events = await store.events(id);
    const last = events[events.length - 1];
    // A pairing whose second game's id is taken: the transaction must keep nothing of it.
    const game = (gameId: string, board: number) =>
      a.referee.tournamentGame({
        gameId,
        kind: 'backgammon',
        ruleset: { matchLength: 1 },
        seats: [
          { participantId: 'p-x', name: 'X' },
          { participantId: 'p-y', name: 'Y' },
        ],
        tournament: { id, round: 1, board },
      });
    const fresh = game('fresh-game-1', 1);
    const taken = game(existing.game.gameId, 2);
    const paired = { seq: last.seq + 1, type: 'RoundPaired', actor: -1, moveId: null, bodyHash: null, payload: {}, createdAt: new Date().toISOString(), prevHash: last.hash, hash: 'h' };
    await expect(
      store.append(id, [paired], { version: paired.seq, hash: 'h', status: 'RUNNING' }, { games: [fresh, taken].map((g) => ({ row: g.row, seats: g.seats, events: g.events })) }),
    ).rejects.toThrow();
    expect(await store.version(id)).toBe(before);
    await expect(a.referee.game('fresh-game-1')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
