import { fail, ok } from '../../src/engines/kit/index.js';
import { verifyTournamentBundle } from '../../src/referee/core/tournament/audit.js';
import { rowRefusals } from '../../src/referee/core/tournament/bulk.js';
import type { TournamentCommand } from '../../src/referee/core/tournament/decider.js';
import type { GameResultPayload, ScheduledGame } from '../../src/referee/core/tournament/events.js';
import { eventHash, type StoredEvent } from '../../src/referee/core/stream.js';
import { Driver, registry } from './support.js';

/**
 * Results participants report (docs/rules/tournaments.md §R3.10, §R3.11), a forfeit inside a
 * multi-game knockout match (§K6.8) and bulk registration, through the pure decider and the verifier.
 */

const backgammon = { kind: 'backgammon', ruleset: { matchLength: 3 } };
type Scheduled = { round: number; board: number; game: ScheduledGame };

/** An entered 2-seat result: `winner` seat 0 or 1 (or 'forfeit0'/'forfeit1': that seat wins by forfeit). */
function entered(g: Scheduled, winner: 0 | 1 | 'forfeit0', reason: string | null = null): GameResultPayload {
  const played = winner === 0 || winner === 1;
  return {
    round: g.round,
    board: g.board,
    gameId: g.game.gameId,
    source: 'organizer',
    seats: g.game.seats.map((participantId, i) => ({
      participantId,
      kind: played ? 'PLAYED' : i === 0 ? 'FORFEIT_WIN' : 'FORFEIT_LOSS',
      gamePoints: played ? (i === winner ? '3' : '0') : null,
    })),
    ranking: played ? [[winner], [1 - winner]] : [],
    head: null,
    record: null,
    reason,
  };
}

const refusal = (d: Driver, command: Exclude<TournamentCommand, { type: 'CreateTournament' }>, participantId?: string): string => {
  try {
    d.run(command, participantId ? { role: 'participant', participantId } : undefined);
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
};

const bundleOf = (d: Driver, events: StoredEvent[] = d.events) => ({
  format: 'arbiter-tournament-bundle/1' as const,
  tournament: { id: d.id, name: '', kind: 'backgammon', format: 'swiss', status: 'RUNNING', seedCommitment: d.t.seedCommitment, seed: null },
  hashAlgorithm: 'sha256(prevHash || RFC8785(event))' as const,
  head: { seq: events[events.length - 1].seq, hash: events[events.length - 1].hash },
  events,
  games: [],
});

function swiss(playerReports: boolean) {
  const d = new Driver({ ...backgammon, format: 'swiss', rounds: 2, playerReports });
  const ids = ['A', 'B', 'C', 'D'].map((n, i) => d.register(n, 2000 - i));
  d.pair();
  return { d, ids, games: d.openGames() };
}

describe('reports (R3.10, R3.11)', () => {
  it('agreeing reports record the result, disagreeing ones open a dispute the organizer settles; the stream verifies', () => {
    const { d, games } = swiss(true);
    const [g1, g2] = games;
    const [a, b] = g1.game.seats;
    expect(d.run({ type: 'ReportResult', participantId: a, result: entered(g1, 0) }, { role: 'participant', participantId: a }).map((e) => e.type)).toEqual(['ResultReported']);
    expect(d.run({ type: 'ReportResult', participantId: b, result: entered(g1, 0) }, { role: 'participant', participantId: b }).map((e) => e.type)).toEqual(['ResultReported', 'ResultRecorded']);
    expect(d.t.rounds[0].boards[0].results[g1.game.gameId].reason).toBe('reported by both sides (R3.10)');

    const [c, e] = g2.game.seats;
    d.run({ type: 'ReportResult', participantId: c, result: entered(g2, 0) }, { role: 'participant', participantId: c });
    expect(d.run({ type: 'ReportResult', participantId: e, result: entered(g2, 1) }, { role: 'participant', participantId: e }).map((x) => x.type)).toEqual(['ResultReported', 'ResultDisputed']);
    expect(refusal(d, { type: 'ReportResult', participantId: c, result: entered(g2, 1) }, c)).toMatch(/^DISPUTE_OPEN/);
    // The organizer's own entry for a disputed game needs a reason.
    expect(refusal(d, { type: 'RecordResult', result: entered(g2, 1), correction: false })).toMatch(/^INVALID_INPUT.*R3\.11/);
    expect(refusal(d, { type: 'SettleDispute', gameId: g2.game.gameId, acceptReportOf: e, reason: 'the scoresheet' }, c)).toMatch(/^FORBIDDEN/);
    const settled = d.run({ type: 'SettleDispute', gameId: g2.game.gameId, acceptReportOf: e, reason: 'the scoresheet' });
    expect(settled.map((x) => x.type)).toEqual(['DisputeSettled', 'ResultRecorded']);
    expect(d.t.rounds[0].boards[1].results[g2.game.gameId]).toMatchObject({ ranking: [[1], [0]], reason: 'the scoresheet' });
    expect(refusal(d, { type: 'SettleDispute', gameId: g2.game.gameId, acceptReportOf: e, reason: 'again' })).toMatch(/^NO_DISPUTE/);
    expect(d.refold().version).toBe(d.events.length);
    expect(verifyTournamentBundle(registry, bundleOf(d)).ok).toBe(true);
  });

  it('refuses reports when not allowed, from another board, a forfeit, an impossible result, and after the result', () => {
    const off = swiss(false);
    const [g] = off.games;
    expect(refusal(off.d, { type: 'ReportResult', participantId: g.game.seats[0], result: entered(g, 0) }, g.game.seats[0])).toMatch(/^REPORTS_NOT_ALLOWED/);

    const { d, games } = swiss(true);
    const [g1, g2] = games;
    const stranger = g2.game.seats[0];
    expect(refusal(d, { type: 'ReportResult', participantId: stranger, result: entered(g1, 0) }, stranger)).toMatch(/^NOT_YOUR_BOARD/);
    expect(refusal(d, { type: 'ReportResult', participantId: g1.game.seats[0], result: entered(g1, 'forfeit0') }, g1.game.seats[0])).toMatch(/^INVALID_RESULT.*R3\.2/);
    const draw = { ...entered(g1, 0), ranking: [[0, 1]], seats: entered(g1, 0).seats.map((s) => ({ ...s, gamePoints: '1' })) };
    expect(refusal(d, { type: 'ReportResult', participantId: g1.game.seats[0], result: draw }, g1.game.seats[0])).toMatch(/^INVALID_RESULT.*R3\.9/);
    expect(refusal(d, { type: 'ReportResult', participantId: g1.game.seats[1], result: entered(g1, 0) }, g1.game.seats[0])).toMatch(/^FORBIDDEN/);
    d.run({ type: 'RecordResult', result: entered(g1, 1), correction: false });
    expect(refusal(d, { type: 'ReportResult', participantId: g1.game.seats[0], result: entered(g1, 1) }, g1.game.seats[0])).toMatch(/^RESULT_ALREADY_RECORDED/);
  });

  it('a bundle whose participant records a result without agreeing reports is INVALID', () => {
    const { d, games } = swiss(true);
    const [g1] = games;
    const [a, b] = g1.game.seats;
    d.run({ type: 'ReportResult', participantId: a, result: entered(g1, 0) }, { role: 'participant', participantId: a });
    d.run({ type: 'ReportResult', participantId: b, result: entered(g1, 0) }, { role: 'participant', participantId: b });
    // Forge: the recorded result says seat 1 won, rechained so only the rules can tell.
    const events = d.events.map((e) => ({ ...e }));
    const at = events.findIndex((e) => e.type === 'ResultRecorded');
    events[at] = { ...events[at], payload: entered(g1, 1) as unknown as Record<string, unknown> };
    for (let k = at; k < events.length; k++) {
      if (k > at) events[k].prevHash = events[k - 1].hash;
      events[k].hash = eventHash(d.id, events[k]);
    }
    const verdict = verifyTournamentBundle(registry, bundleOf(d, events));
    expect(verdict.ok).toBe(false);
    expect(verdict.problem).toMatch(/R3\.10/);
  });
});

describe('a forfeit inside a multi-game knockout match (K6.8)', () => {
  it("closes the match's later games with the same forfeit, and the next round can be paired", () => {
    const d = new Driver({ ...backgammon, format: 'knockout', gamesPerMatch: 3 });
    for (let i = 1; i <= 4; i++) d.register(`P${i}`, 3000 - i);
    d.pair();
    const [m1, m2] = d.t.rounds[0].boards;
    const first = { round: 1, board: m1.board, game: m1.games[0] };
    const events = d.run({ type: 'RecordResult', result: entered(first, 'forfeit0', 'did not come'), correction: false });
    expect(events.filter((e) => e.type === 'ResultRecorded')).toHaveLength(3);
    const board = d.t.rounds[0].boards[0];
    expect(board.winner).toBe(first.game.seats[0]);
    for (const g of board.games.slice(1)) {
      const r = board.results[g.gameId];
      expect(r.reason).toBe('the match was decided by the forfeit in game 1 (K6.8)');
      expect(r.seats.find((s) => s.participantId === first.game.seats[0])!.kind).toBe('FORFEIT_WIN');
    }
    for (const g of m2.games) d.run({ type: 'RecordResult', result: entered({ round: 1, board: m2.board, game: g }, g.seats[0] === m2.seats[0] ? 0 : 1), correction: false });
    expect(d.pair().map((e) => e.type)).toContain('RoundPaired');
    expect(d.refold().version).toBe(d.events.length);
  });
});

describe('bulk registration', () => {
  it('registers every row or none, listing each refused row, and gives requested byes when their round is paired', () => {
    const d = new Driver({ ...backgammon, format: 'swiss', rounds: 3, maxRequestedByes: 1 });
    const rows = [
      { participantId: 'p-a', name: 'A', rating: 1900, externalId: 'FED-1' },
      { participantId: 'p-b', name: 'B', rating: 1800, externalId: 'FED-1' },
      { participantId: 'p-c', name: 'C', rating: 1700, requestedByes: [2, 3] },
      { participantId: 'p-d', name: 'D', rating: 1600, requestedByes: [9] },
    ];
    // Each row decided on what the rows before it leave: the second row's external id is the first's.
    const one = (t: typeof d.t, row: (typeof rows)[number]) =>
      row.externalId && t.participants.some((p) => p.externalId === row.externalId)
        ? fail('EXTERNAL_ID_TAKEN', 'taken')
        : ok({ ...t, participants: [...t.participants, { ...t.participants[0], externalId: row.externalId }] });
    expect(rowRefusals(d.t, rows, one)).toEqual([{ row: 2, code: 'EXTERNAL_ID_TAKEN', message: 'taken' }]);
    const before = d.events.length;
    expect(refusal(d, { type: 'RegisterParticipants', entries: rows })).toMatch(/^EXTERNAL_ID_TAKEN/);
    expect(d.events).toHaveLength(before);
    rows[1].externalId = 'FED-2';
    expect(refusal(d, { type: 'RegisterParticipants', entries: rows })).toMatch(/^BYE_LIMIT/);
    rows[2].requestedByes = [2];
    expect(refusal(d, { type: 'RegisterParticipants', entries: rows })).toMatch(/^INVALID_INPUT.*rounds 1 to 3/);
    rows[3].requestedByes = [];
    expect(d.run({ type: 'RegisterParticipants', entries: rows }).map((e) => e.type)).toEqual(Array(4).fill('ParticipantRegistered'));
    expect(d.t.participants.map((p) => p.externalId ?? null)).toEqual(['FED-1', 'FED-2', null, null]);
    expect(refusal(d, { type: 'RegisterParticipants', entries: [{ participantId: 'p-e', name: 'E', rating: 0 }] }, 'p-a')).toMatch(/^FORBIDDEN/);
    d.register('E', 1500);
    d.pair();
    for (const g of d.openGames()) d.run({ type: 'RecordResult', result: entered(g, 0), correction: false });
    const paired = d.pair().map((e) => e.type);
    expect(paired[0]).toBe('RoundSettingsSet');
    expect(d.t.rounds[1].requestedByes).toEqual(['p-c']);
    expect(d.refold().version).toBe(d.events.length);
  });
});
