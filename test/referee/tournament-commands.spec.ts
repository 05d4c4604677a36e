import { Logger } from '@nestjs/common';
import type { RefereeMetrics } from '../../src/referee/application/metrics.port.js';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { TournamentService } from '../../src/referee/application/tournament.service.js';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { verifyTournamentBundle } from '../../src/referee/core/tournament/audit.js';
import { AppendConflict } from '../../src/referee/store/event-store.js';
import { MemoryEventStore } from '../../src/referee/store/memory-event-store.js';
import { MemoryTournamentStore } from '../../src/referee/store/memory-tournament-store.js';
import { duelEngine } from '../support/duel-engine.js';
import { type Instance, swissOfTwo, tokenDirectory } from '../support/instances.js';

/**
 * Tournament commands through the application over the in-memory stores: the one command path
 * (compare-and-set, command ids), the workflows between games and tournaments, and reads that
 * only read. Each "instance" is a process of its own over the same stores.
 */
const registry = EngineRegistry.of([duelEngine]);
const metrics: RefereeMetrics = { inc: () => {}, observe: () => {} };
beforeAll(() => Logger.overrideLogger(false));

type Stores = { games: MemoryEventStore; tournaments: MemoryTournamentStore };

function stores(): Stores {
  const games = new MemoryEventStore();
  return { games, tournaments: new MemoryTournamentStore(games) };
}

/** A process over the stores; its workflows run unless `workflows` is false (a process that stopped before taking their steps). */
async function instance(s: Stores, workflows = true): Promise<Instance> {
  const referee = new RefereeService(s.games, registry, metrics, undefined, undefined, undefined, undefined, undefined, undefined, tokenDirectory(s.games, s.tournaments));
  const tournaments = new TournamentService(s.tournaments, s.games, referee, registry);
  if (workflows) await tournaments.onModuleInit();
  return { referee, tournaments };
}

/** A one-round Swiss of two duel players, paired: its one game is being played; `concede` ends it on an instance. */
async function pairedSwiss(i: Instance) {
  const t = await swissOfTwo(i, { kind: 'duel' });
  return { ...t, concede: (on: Instance) => on.referee.resign(t.game.gameId, t.loser, 'concede') };
}

const results = async (s: Stores, id: string) => (await s.tournaments.events(id)).filter((e) => e.type === 'ResultRecorded');

/** Counts the appends that lost their race (AppendConflict) from here on. */
function countConflicts(s: Stores): { count: number } {
  const conflicts = { count: 0 };
  const append = s.tournaments.append.bind(s.tournaments);
  s.tournaments.append = async (...args) => {
    try {
      await append(...args);
    } catch (err) {
      if (err instanceof AppendConflict) conflicts.count++;
      throw err;
    }
  };
  return conflicts;
}

/** Waits for what a workflow does in the background (no time limit but the test's). */
async function until(done: () => Promise<boolean>): Promise<void> {
  while (!(await done())) await new Promise((r) => setTimeout(r, 5));
}

describe('tournament commands over the in-memory stores', () => {
  it("records a scheduled game's result when the game ends, as one command named after the game, before the move is answered", async () => {
    const s = stores();
    const a = await instance(s);
    const t = await pairedSwiss(a);
    expect(await t.concede(a)).toMatchObject({ accepted: true, status: 'FINISHED' });
    const recorded = await results(s, t.id);
    expect(recorded.map((e) => e.moveId)).toEqual([`game:${t.game.gameId}`]);
    const finished = await a.tournaments.tournament(t.id);
    expect(finished.finished).toBe(true);
    expect(finished.rounds[0].boards[0].results[t.game.gameId]).toMatchObject({ source: 'game', ranking: [[1], [0]] });
    expect(verifyTournamentBundle(registry, await a.tournaments.bundle(t.id)).ok).toBe(true);
  });

  it("closes a scheduled game with the result its organizer entered, and the game's end records nothing twice", async () => {
    const s = stores();
    const a = await instance(s);
    const t = await pairedSwiss(a);
    await a.tournaments.recordResult(t.id, t.organizerToken, { round: 1, board: 1, outcome: 'WIN_SEAT1', gamePoints: ['0', '1'], reason: 'played over the board' });
    const game = await a.referee.game(t.game.gameId);
    expect(game).toMatchObject({ status: 'FINISHED', outcome: { winners: [1] } });
    // The game's end keeps the entry it was closed with, as the tournament records it.
    expect((await s.games.events(t.game.gameId)).find((e) => e.type === 'GameEnded')?.payload).toMatchObject({
      adjudication: { reason: expect.stringContaining('played over the board'), entry: { gameId: t.game.gameId, source: 'organizer', ranking: [[1], [0]] } },
    });
    expect((await results(s, t.id)).map((e) => e.payload.source)).toEqual(['organizer']);
  });

  it('stores one of two commands racing at the same version, decides the other again on fresh state, and stores a command id once', async () => {
    const s = stores();
    const [a, b] = [await instance(s), await instance(s)];
    const { tournament, organizerToken } = await a.tournaments.create({ kind: 'duel', format: 'swiss', rounds: 2 });
    const id = tournament.tournamentId;
    await b.tournaments.tournament(id);
    const conflicts = countConflicts(s);
    const [ann, bob] = await Promise.all([a.tournaments.register(id, organizerToken, { name: 'Ann' }), b.tournaments.register(id, organizerToken, { name: 'Bob' })]);
    const registered = (await a.tournaments.tournament(id)).participants;
    expect(registered.map((p) => p.id).sort()).toEqual([ann.participantId, bob.participantId].sort());
    expect(registered.map((p) => p.registrationNo).sort()).toEqual([1, 2]);
    // Both decided at version 1: the one stored second lost the race and was decided again.
    expect(conflicts.count).toBe(1);
    const paired = await Promise.all([a.tournaments.pairRound(id, organizerToken, 1, 'pair-1'), b.tournaments.pairRound(id, organizerToken, 1, 'pair-1')]);
    expect(paired[0].version).toBe(paired[1].version);
    expect((await s.tournaments.events(id)).filter((e) => e.type === 'RoundPaired')).toHaveLength(1);
  });

  it("leaves a game's result to the workflows: a read records nothing, the next command that needs it does", async () => {
    const s = stores();
    const stopped = await instance(s, false);
    const t = await pairedSwiss(stopped);
    // The game ends in a process whose workflows never took their step.
    await t.concede(stopped);
    const reader = await instance(s, false);
    expect((await reader.tournaments.tournament(t.id)).finished).toBe(false);
    await reader.tournaments.bundle(t.id);
    expect(await results(s, t.id)).toEqual([]);
    await expect(reader.tournaments.finish(t.id, t.organizerToken)).rejects.toMatchObject({ code: 'TOURNAMENT_FINISHED' });
    expect((await results(s, t.id)).map((e) => e.moveId)).toEqual([`game:${t.game.gameId}`]);
  });

  it('takes the steps a stopped process left undone at start-up, once, however many processes start', async () => {
    const s = stores();
    const stopped = await instance(s, false);
    const t = await pairedSwiss(stopped);
    await t.concede(stopped);
    const started = await Promise.all([instance(s), instance(s), instance(s)]);
    for (const i of started) i.tournaments.onApplicationBootstrap();
    await until(async () => (await results(s, t.id)).length > 0);
    // Every catch-up under way is done once its process stops.
    await Promise.all(started.map((i) => i.tournaments.onModuleDestroy()));
    expect((await results(s, t.id)).map((e) => e.moveId)).toEqual([`game:${t.game.gameId}`]);
    expect((await started[0].tournaments.tournament(t.id)).finished).toBe(true);
  });

  it("stores a result its workflow step left undone at the schedules' next sweep, with no command: the round does not wait for one", async () => {
    const s = stores();
    const stopped = await instance(s, false);
    const t = await pairedSwiss(stopped);
    // The step is lost (as when it loses its races, or the database is away): nothing records the result.
    await t.concede(stopped);
    const running = await instance(s);
    expect(await results(s, t.id)).toEqual([]);
    await running.tournaments.schedules.scan();
    expect((await results(s, t.id)).map((e) => e.moveId)).toEqual([`game:${t.game.gameId}`]);
    expect((await running.tournaments.tournament(t.id)).finished).toBe(true);
    await running.tournaments.onModuleDestroy();
  });

  it("charges a pairing's games to its caller's allowance once stored, and gives them back to the caller whose pairing lost the race", async () => {
    const s = stores();
    const [a, b] = [await instance(s), await instance(s)];
    const { tournament, organizerToken } = await a.tournaments.create({ kind: 'duel', format: 'swiss', rounds: 1 });
    const id = tournament.tournamentId;
    for (const name of ['Ann', 'Bob', 'Cid', 'Dee']) await a.tournaments.register(id, organizerToken, { name });
    await b.tournaments.tournament(id);
    const conflicts = countConflicts(s);
    const charged = { a: 0, b: 0, taken: 0 };
    const allowance = (who: 'a' | 'b') => ({
      take: (games: number) => {
        charged[who] += games;
        charged.taken += games;
      },
      giveBack: (games: number) => {
        charged[who] -= games;
      },
    });
    const paired = await Promise.allSettled([a.tournaments.pairRound(id, organizerToken, 1, 'pair-a', allowance('a')), b.tournaments.pairRound(id, organizerToken, 1, 'pair-b', allowance('b'))]);
    // Both decided at the same version and paid for their 2 games; the one stored second gave its 2 back, then was refused.
    expect(conflicts.count).toBe(1);
    expect(paired.map((p) => p.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(charged.taken).toBe(4);
    expect(charged.a + charged.b).toBe(2);
    expect(charged[paired[0].status === 'fulfilled' ? 'b' : 'a']).toBe(0);
  });

  it('an append at a taken version stores nothing, not even the games it schedules', async () => {
    const s = stores();
    const a = await instance(s);
    const { tournament } = await a.tournaments.create({ kind: 'duel', format: 'swiss', rounds: 1 });
    const [created] = await s.tournaments.events(tournament.tournamentId);
    const game = a.referee.tournamentGame({
      gameId: 'scheduled-1',
      kind: 'duel',
      ruleset: {},
      seats: [
        { participantId: 'p-a', name: 'A' },
        { participantId: 'p-b', name: 'B' },
      ],
      tournament: { id: tournament.tournamentId, round: 1, board: 1 },
    });
    const again = { ...created, type: 'RoundPaired' };
    await expect(s.tournaments.append(tournament.tournamentId, [again], { version: 1, hash: created.hash, status: 'RUNNING' }, { games: [game] })).rejects.toBeInstanceOf(AppendConflict);
    expect(await s.tournaments.version(tournament.tournamentId)).toBe(1);
    expect(await s.games.game('scheduled-1')).toBeNull();
  });
});

/**
 * Appends that take a moment (as a database's round trip does), each with its events' types;
 * `meanwhile` runs once before the first append of several events.
 */
function slowAppends(s: Stores, meanwhile?: () => Promise<unknown>) {
  const appends: string[][] = [];
  const append = s.tournaments.append.bind(s.tournaments);
  s.tournaments.append = async (id, events, head, extras) => {
    if (events.length > 1 && meanwhile) {
      const first = meanwhile;
      meanwhile = undefined;
      await first();
    }
    await new Promise((r) => setTimeout(r, 10));
    await append(id, events, head, extras);
    appends.push(events.map((e) => e.type));
  };
  return appends;
}

async function filledSwiss(a: Instance, players: number) {
  const { tournament, organizerToken } = await a.tournaments.create({ kind: 'duel', format: 'swiss', rounds: 1 });
  const id = tournament.tournamentId;
  for (let i = 1; i <= players; i++) await a.tournaments.register(id, organizerToken, { name: `P${i}` });
  return { id, organizerToken };
}

describe("a tournament's commands that queue together (group commit)", () => {
  it('stores the results that arrive while an append is under way in one append, answers each once stored, and the bundle verifies', async () => {
    const s = stores();
    const a = await instance(s);
    const { id, organizerToken } = await filledSwiss(a, 16);
    const { boards } = (await a.tournaments.pairRound(id, organizerToken, 1)).rounds[0];
    const appends = slowAppends(s);
    const answers = await Promise.all(boards.map((b) => a.tournaments.recordResult(id, organizerToken, { round: 1, board: b.board, outcome: 'WIN_SEAT0', gamePoints: ['1', '0'] })));
    // 8 results in fewer appends than results; each answer holds its own result, stored.
    expect(appends.flat().filter((type) => type === 'ResultRecorded')).toHaveLength(8);
    expect(appends.length).toBeLessThan(8);
    for (const [i, t] of answers.entries()) expect(Object.keys(t.rounds[0].boards[i].results)).toHaveLength(1);
    expect(await results(s, id)).toHaveLength(8);
    expect((await a.tournaments.tournament(id)).finished).toBe(true);
    expect(verifyTournamentBundle(registry, await a.tournaments.bundle(id)).ok).toBe(true);
  });

  it('decides each command of a group on the one before it: a second withdrawal of the same participant is refused, the others stored', async () => {
    const s = stores();
    const a = await instance(s);
    const { id, organizerToken } = await filledSwiss(a, 4);
    const [first] = (await a.tournaments.tournament(id)).participants;
    const appends = slowAppends(s);
    const settled = await Promise.allSettled([
      a.tournaments.register(id, organizerToken, { name: 'Ann' }),
      a.tournaments.withdraw(id, organizerToken, first.id, 'ill'),
      a.tournaments.withdraw(id, organizerToken, first.id, 'ill'),
      a.tournaments.register(id, organizerToken, { name: 'Bob' }),
    ]);
    expect(settled.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((settled[2] as PromiseRejectedResult).reason).toMatchObject({ code: 'ALREADY_WITHDRAWN' });
    // Three commands stored in fewer appends.
    expect(appends.flat().sort()).toEqual(['ParticipantRegistered', 'ParticipantRegistered', 'ParticipantWithdrawn']);
    expect(appends.length).toBeLessThan(3);
    const t = await a.tournaments.tournament(id);
    expect(t.participants.map((p) => p.registrationNo)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(t.participants.find((p) => p.id === first.id)?.withdrawnAfterRound).toBe(0);
  });

  it('takes a group that lost its race to another instance one command at a time: each stored once, decided on fresh state', async () => {
    const s = stores();
    const [a, b] = [await instance(s), await instance(s)];
    const { id, organizerToken } = await filledSwiss(a, 2);
    const conflicts = countConflicts(s);
    slowAppends(s, () => b.tournaments.register(id, organizerToken, { name: 'Elsewhere' }));
    const names = ['Ann', 'Bob', 'Cid', 'Dee'];
    const registered = await Promise.all(names.map((name) => a.tournaments.register(id, organizerToken, { name })));
    expect(conflicts.count).toBe(1);
    const t = await a.tournaments.tournament(id);
    expect(t.participants.map((p) => p.name).sort()).toEqual([...names, 'Elsewhere', 'P1', 'P2'].sort());
    expect(t.participants.map((p) => p.registrationNo)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(new Set(registered.map((r) => r.participantId)).size).toBe(4);
  });
});

describe('a withdrawal during a knockout match of several games (P2.4, K6.8)', () => {
  it('forfeits every game of the match not yet played, closes each on the service, and the opponent is champion', async () => {
    const s = stores();
    const a = await instance(s);
    const { tournament, organizerToken } = await a.tournaments.create({ kind: 'duel', format: 'knockout', gamesPerMatch: 3 });
    const id = tournament.tournamentId;
    const ann = await a.tournaments.register(id, organizerToken, { name: 'Ann' });
    const bob = await a.tournaments.register(id, organizerToken, { name: 'Bob' });
    const { games } = (await a.tournaments.pairRound(id, organizerToken, 1)).rounds[0].boards[0];
    expect(games).toHaveLength(3);
    const finished = await a.tournaments.withdraw(id, organizerToken, bob.participantId, 'ill');
    expect(finished.finished).toBe(true);
    expect(finished.ranking?.find((r) => r.rank === 1)?.participantId).toBe(ann.participantId);
    for (const g of games) {
      expect(finished.rounds[0].boards[0].results[g.gameId].seats.find((x) => x.participantId === bob.participantId)?.kind).toBe('FORFEIT_LOSS');
      expect((await a.referee.game(g.gameId)).status).toBe('FINISHED');
    }
    expect(verifyTournamentBundle(registry, await a.tournaments.bundle(id)).ok).toBe(true);
  });
});
