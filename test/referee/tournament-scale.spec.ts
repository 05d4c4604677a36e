import { Logger } from '@nestjs/common';
import type { RefereeMetrics } from '../../src/referee/application/metrics.port.js';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { TournamentService } from '../../src/referee/application/tournament.service.js';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { MemoryEventStore } from '../../src/referee/store/memory-event-store.js';
import { MemoryTournamentStore } from '../../src/referee/store/memory-tournament-store.js';
import { duelEngine } from '../support/duel-engine.js';
import { tokenDirectory } from '../support/instances.js';

/**
 * A tournament's result costs the same in its last round as in its first (issue 27, item 8):
 * what a result reads from the stores (calls and rows), and the results it records, do not grow
 * with the games already finished; games ending together are each recorded once. Counted on the
 * in-memory stores, whatever the machine's speed.
 */
const registry = EngineRegistry.of([duelEngine]);
const metrics: RefereeMetrics = { inc: () => {}, observe: () => {} };
beforeAll(() => Logger.overrideLogger(false));

/** Every store read, by method, and the rows (games, statuses, events) it answered; and how often the tournament's stored version was asked for. */
function countReads(games: MemoryEventStore, tournaments: MemoryTournamentStore) {
  const reads = { calls: 0, rows: 0, tournamentVersions: 0 };
  const size = (answer: unknown) => (Array.isArray(answer) ? answer.length : answer instanceof Map ? answer.size : answer ? 1 : 0);
  const spy = <T extends object>(store: T, methods: (keyof T)[]) => {
    for (const m of methods) {
      const original = (store[m] as (...a: unknown[]) => Promise<unknown>).bind(store);
      (store as Record<keyof T, unknown>)[m] = async (...args: unknown[]) => {
        const answer = await original(...args);
        reads.calls++;
        reads.rows += size(answer);
        return answer;
      };
    }
  };
  spy(games, ['game', 'events', 'versions', 'list', 'count', 'tournamentGameStatuses']);
  spy(tournaments, ['tournament', 'events', 'versions', 'participant', 'unfinished']);
  const versions = tournaments.versions.bind(tournaments);
  tournaments.versions = (ids) => {
    reads.tournamentVersions++;
    return versions(ids);
  };
  return reads;
}

async function swiss(players: number, rounds: number) {
  const games = new MemoryEventStore();
  const store = new MemoryTournamentStore(games);
  const referee = new RefereeService(games, registry, metrics, undefined, undefined, undefined, undefined, undefined, undefined, tokenDirectory(games, store));
  const service = new TournamentService(store, games, referee, registry);
  await service.onModuleInit();
  const { tournament, organizerToken } = await service.create({ kind: 'duel', format: 'swiss', rounds });
  const id = tournament.tournamentId;
  const tokens = new Map<string, string>();
  for (let i = 1; i <= players; i++) {
    const r = await service.register(id, organizerToken, { name: `P${i}` });
    tokens.set(r.participantId, r.participantToken);
  }
  /** How many times a game's result was recorded (or found recorded), and what runs meanwhile. */
  const recorded = { count: 0, meanwhile: null as (() => Promise<unknown>) | null, commands: [] as Promise<unknown>[] };
  const seen = new Set<string>();
  const recordGameResult = service.recordGameResult.bind(service);
  // A game's result takes a moment to record (as on a database): a command meanwhile (one for each game) finds its game ended and its result missing.
  service.recordGameResult = async (...args) => {
    recorded.count++;
    if (recorded.meanwhile && !seen.has(args[0].gameId)) recorded.commands.push(recorded.meanwhile());
    seen.add(args[0].gameId);
    await new Promise((r) => setTimeout(r, 1));
    return recordGameResult(...args);
  };
  return { games, store, referee, service, id, organizerToken, tokens, recorded };
}

type Swiss = Awaited<ReturnType<typeof swiss>>;

/** The boards of round `round` once paired. */
async function paired({ service, id, organizerToken }: Swiss, round: number) {
  return (await service.pairRound(id, organizerToken, round)).rounds[round - 1].boards;
}

describe('a tournament result at scale', () => {
  it('reads as much, and records as many results, in round 4 as in round 1 (no reload of the finished games)', async () => {
    const s = await swiss(16, 4);
    const reads = countReads(s.games, s.store);
    const perRound: { resignation: typeof reads; entry: typeof reads; recorded: number }[] = [];
    for (let round = 1; round <= 4; round++) {
      const boards = await paired(s, round);
      const measured = async (result: () => Promise<unknown>) => {
        const [calls, rows, tournamentVersions] = [reads.calls, reads.rows, reads.tournamentVersions];
        await result();
        return { calls: reads.calls - calls, rows: reads.rows - rows, tournamentVersions: reads.tournamentVersions - tournamentVersions };
      };
      const recordedBefore = s.recorded.count;
      // Board 1: a seat resigns its game (the workflow records it); board 2: the organizer enters an over-the-board result.
      const first = boards[0].games[0];
      const resignation = await measured(() => s.referee.resign(first.gameId, s.tokens.get(first.seats[0])!, `resign-${round}`));
      const entry = await measured(() => s.service.recordResult(s.id, s.organizerToken, { round, board: 2, outcome: 'WIN_SEAT1', gamePoints: ['0', '1'] }));
      perRound.push({ resignation, entry, recorded: s.recorded.count - recordedBefore });
      for (const b of boards.slice(2)) await s.service.recordResult(s.id, s.organizerToken, { round, board: b.board, outcome: 'WIN_SEAT0', gamePoints: ['1', '0'] });
    }
    expect((await s.service.tournament(s.id)).finished).toBe(true);
    // Round 4 starts with 24 games finished and recorded; round 1 with none.
    for (const later of perRound.slice(1)) expect(later).toEqual(perRound[0]);
    expect(perRound[0].recorded).toBe(1);
    // The stored version is asked for by an entry's catch-up and by the command path (5 times before), by the command path alone for a resignation's result (twice before).
    expect(perRound[0].entry.tournamentVersions).toBe(2);
    expect(perRound[0].resignation.tournamentVersions).toBe(1);
  });

  it('records each of many games that end together once, however many commands catch the tournament up meanwhile', async () => {
    const s = await swiss(32, 2);
    const boards = await paired(s, 1);
    // While each result is on its way, the organizer asks for round 2 (a command that catches the tournament up first).
    s.recorded.meanwhile = () => s.service.pairRound(s.id, s.organizerToken, 2).catch(() => undefined);
    await Promise.all(boards.map((b) => s.referee.resign(b.games[0].gameId, s.tokens.get(b.games[0].seats[0])!, 'resign')));
    await Promise.all(s.recorded.commands);
    const t = await s.service.tournament(s.id);
    expect(t.rounds[0].boards.every((b) => Object.keys(b.results).length === 1)).toBe(true);
    expect(s.recorded.count).toBe(boards.length);
  });
});
