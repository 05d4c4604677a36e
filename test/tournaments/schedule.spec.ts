import { chainEvents, emptyHead, type StoredEvent } from '../../src/referee/core/stream.js';
import { nextStepAt, pendingSteps } from '../../src/referee/core/tournament/schedule.js';
import { parseSchedule } from '../../src/referee/core/tournament/schedule-config.js';
import { Driver } from './support.js';

/** Tournaments that run themselves (docs/rules/tournaments.md §P2.9-P2.11), through the pure decider and its fold. */

const REFEREE = { role: 'referee' } as const;
const at = (iso: string) => new Date(iso).toISOString();
const START = at('2026-12-01T18:00:00Z');

function scheduled(schedule: Record<string, unknown>, format = 'swiss', rounds: number | null = 2): Driver {
  return new Driver({ kind: 'backgammon', ruleset: { matchLength: 1 }, format, ...(rounds ? { rounds } : {}), openRegistration: true, schedule });
}

/** The stream with one event changed, chained again (as a forger would): only the tournament's own rules can catch it. */
const tampered = (d: Driver, index: number, change: Partial<StoredEvent>): StoredEvent[] =>
  chainEvents(
    d.id,
    emptyHead(),
    d.events.map(({ seq: _s, prevHash: _p, hash: _h, ...e }, i) => (i === index ? { ...e, ...change } : e)),
  );

const types = (events: { type: string }[]) => events.map((e) => e.type);

describe('a schedule as the organizer gives it (P2.9-P2.11)', () => {
  it('is recorded complete, and refused with what is wrong', () => {
    expect(parseSchedule({ startAt: '2026-12-01T18:00:00Z', checkInMinutes: 30, autoPair: true }, 'swiss')).toEqual({
      ok: true,
      value: { startAt: START, registrationOpensAt: null, registrationClosesAt: null, checkInMinutes: 30, autoPair: true, pairingIntervalSeconds: 0, scheduleAll: false },
    });
    const refused = (input: unknown) => {
      const r = parseSchedule(input, 'swiss');
      return r.ok ? null : r.error.message;
    };
    expect(refused({ checkInMinutes: 30 })).toMatch(/give startAt/);
    expect(refused({ startAt: 'tomorrow' })).toMatch(/ISO 8601/);
    expect(refused({ startAt: START, registrationClosesAt: '2026-12-02T00:00:00Z' })).toMatch(/at the start or before/);
    expect(refused({ pairingIntervalSeconds: 60 })).toMatch(/needs autoPair/);
    expect(refused({ autopair: true })).toMatch(/unknown option autopair; it takes startAt/);
    expect(refused({ scheduleAll: true })).toMatch(/only a round-robin/);
  });
});

describe('registration window and check-in (P2.9, P2.10)', () => {
  it('opens and closes registration at its times, withdraws who did not check in, and pairs round 1 at the start', () => {
    const d = scheduled({ registrationOpensAt: '2026-12-01T10:00:00Z', registrationClosesAt: '2026-12-01T17:00:00Z', startAt: START, checkInMinutes: 60 });
    d.now = at('2026-12-01T09:00:00Z');
    expect(() => d.run({ type: 'RegisterParticipant', participantId: 'p-early', name: 'Early', rating: 0 }, { role: 'participant', participantId: '' })).toThrow(
      /REGISTRATION_CLOSED: registration opens at 2026-12-01T10:00:00.000Z/,
    );
    expect(() => d.run({ type: 'RunSchedule' }, REFEREE)).toThrow(/NOTHING_DUE/);
    expect(nextStepAt(d.t)).toBe(at('2026-12-01T10:00:00Z'));
    d.now = at('2026-12-01T10:00:00Z');
    expect(types(d.run({ type: 'RunSchedule' }, REFEREE))).toEqual(['RegistrationOpened']);
    for (const n of ['A', 'B', 'C', 'D']) d.run({ type: 'RegisterParticipant', participantId: `p-${n}`, name: n, rating: 0 }, { role: 'participant', participantId: '' });
    expect(() => d.run({ type: 'CheckIn', participantId: 'p-A' }, { role: 'participant', participantId: 'p-A' })).toThrow(/CHECK_IN_CLOSED: check-in opens at 2026-12-01T17:00:00.000Z/);
    d.now = at('2026-12-01T17:00:00Z');
    expect(types(d.run({ type: 'RunSchedule' }, REFEREE))).toEqual(['RegistrationClosed', 'CheckInOpened']);
    expect(() => d.run({ type: 'RegisterParticipant', participantId: 'p-late', name: 'Late', rating: 0 }, { role: 'participant', participantId: '' })).toThrow(/REGISTRATION_CLOSED/);
    for (const n of ['A', 'B', 'C']) d.run({ type: 'CheckIn', participantId: `p-${n}` }, { role: 'participant', participantId: `p-${n}` });
    expect(() => d.run({ type: 'CheckIn', participantId: 'p-A' }, { role: 'participant', participantId: 'p-A' })).toThrow(/ALREADY_CHECKED_IN/);
    expect(() => d.run({ type: 'CheckIn', participantId: 'p-D' }, { role: 'participant', participantId: 'p-A' })).toThrow(/FORBIDDEN/);
    d.now = at('2026-12-01T18:00:01Z');
    const started = d.run({ type: 'RunSchedule' }, REFEREE);
    expect(types(started)).toEqual(['CheckInClosed', 'RoundPaired']);
    expect(started.map((e) => e.actor)).toEqual([null, null]);
    expect(started[0].payload).toEqual({ unconfirmed: ['p-D'] });
    expect(d.t.participants.find((p) => p.id === 'p-D')!.withdrawnAfterRound).toBe(0);
    // Three in: one board and a bye; D is not paired.
    expect(d.t.rounds[0].boards).toHaveLength(1);
    expect(d.t.rounds[0].boards[0].seats).not.toContain('p-D');
    expect(() => d.run({ type: 'CheckIn', participantId: 'p-D' }, { role: 'participant', participantId: 'p-D' })).toThrow(/CHECK_IN_CLOSED/);
    // The stream folds again with every step re-checked and round 1 recomputed.
    expect(d.refold().rounds).toHaveLength(1);
  });

  it('refuses on folding a step taken before its time, and a check-in list that is not who failed to check in', () => {
    const d = scheduled({ startAt: START, checkInMinutes: 60 });
    for (const n of ['A', 'B', 'C']) d.register(n);
    d.now = at('2026-12-01T17:30:00Z');
    d.run({ type: 'RunSchedule' }, REFEREE);
    d.run({ type: 'CheckIn', participantId: 'p-A' }, { role: 'participant', participantId: 'p-A' });
    d.run({ type: 'CheckIn', participantId: 'p-B' }, { role: 'participant', participantId: 'p-B' });
    d.now = START;
    d.run({ type: 'RunSchedule' }, REFEREE);
    const closed = d.events.findIndex((e) => e.type === 'CheckInClosed');
    expect(() => d.refold(tampered(d, closed, {}))).not.toThrow();
    expect(() => d.refold(tampered(d, closed, { createdAt: at('2026-12-01T17:59:00Z') }))).toThrow(/check-in closed before the start/);
    expect(() => d.refold(tampered(d, closed, { payload: { unconfirmed: [] } }))).toThrow(/not those who did not/);
  });
});

describe('autoPair (P2.11)', () => {
  it('schedules the next round when one finishes, pairs it once the interval has passed, and finishes by itself', () => {
    const d = scheduled({ startAt: START, autoPair: true, pairingIntervalSeconds: 600 });
    for (const n of ['A', 'B', 'C', 'D']) d.register(n);
    d.now = START;
    expect(types(d.run({ type: 'RunSchedule' }, REFEREE))).toEqual(['RoundPaired']);
    d.now = at('2026-12-01T19:00:00Z');
    const [g1, g2] = d.openGames();
    d.finish(g1, [0], [1, 0]);
    expect(pendingSteps(d.t)).toEqual([]);
    expect(types(d.finish(g2, [1], [0, 1]))).toEqual(['ResultRecorded', 'RoundScheduled']);
    expect(d.t.schedule!.nextRound).toEqual({ round: 2, at: at('2026-12-01T19:10:00Z') });
    d.now = at('2026-12-01T19:09:59Z');
    expect(() => d.run({ type: 'RunSchedule' }, REFEREE)).toThrow(/NOTHING_DUE/);
    d.now = at('2026-12-01T19:10:00Z');
    expect(types(d.run({ type: 'RunSchedule' }, REFEREE))).toEqual(['RoundPaired']);
    for (const g of d.openGames()) d.finish(g, [0], [1, 0]);
    expect(d.t.finished).toBe(true);
    expect(d.refold().finished).toBe(true);
    // A referee's pairing stamped before its round was due is refused on folding.
    const second = d.events.findIndex((e) => e.type === 'RoundPaired' && (e.payload as { round: number }).round === 2);
    expect(() => d.refold(tampered(d, second, { createdAt: at('2026-12-01T19:05:00Z') }))).toThrow(/round 2 was paired by the referee before it was due/);
  });

  it('lets only the referee take the steps', () => {
    const d = scheduled({ startAt: START, autoPair: true });
    expect(() => d.run({ type: 'RunSchedule' })).toThrow(/FORBIDDEN/);
  });
});

describe('scheduleAll (P2.11)', () => {
  it('pairs every round of a double round-robin with round 1, counts each game in its round, and finishes when the last game of any round ends', () => {
    const d = scheduled({ startAt: START, scheduleAll: true }, 'doubleRoundRobin', null);
    for (const n of ['A', 'B', 'C', 'D']) d.register(n);
    d.now = START;
    const paired = d.run({ type: 'RunSchedule' }, REFEREE);
    // 4 participants: 3 rounds each way, 2 games a round, all at once.
    expect(types(paired).filter((x) => x === 'RoundPaired')).toHaveLength(6);
    expect(d.t.rounds.flatMap((r) => r.boards.flatMap((b) => b.games))).toHaveLength(12);
    expect(() => d.pair()).toThrow(/TOURNAMENT_COMPLETE/);
    // Played last round first: the tournament waits for every round.
    const games = [...d.t.rounds].reverse().flatMap((r) => r.boards.flatMap((b) => b.games.map((game) => ({ round: r.round, board: b.board, game }))));
    for (const [i, g] of games.entries()) {
      expect(d.t.finished).toBe(false);
      d.finish(g, [i % 2], i % 2 === 0 ? [1, 0] : [0, 1]);
    }
    expect(d.t.finished).toBe(true);
    expect(d.refold().finished).toBe(true);
  });

  it('forfeits every unplayed game of a participant who withdraws, in every round', () => {
    const d = scheduled({ scheduleAll: true }, 'roundRobin', null);
    for (const n of ['A', 'B', 'C', 'D']) d.register(n);
    d.pair();
    expect(d.t.rounds).toHaveLength(3);
    const board = d.t.rounds[0].boards[0];
    const first = board.games[0];
    d.finish({ round: 1, board: board.board, game: first }, [0], [1, 0]);
    const leaving = first.seats[1];
    const forfeits = d.run({ type: 'WithdrawParticipant', participantId: leaving, reason: 'left' }).filter((e) => e.type === 'ResultRecorded');
    // Its two other games (rounds 2 and 3) are forfeited; its played game stands.
    expect(forfeits.map((e) => (e.payload as { round: number }).round)).toEqual([2, 3]);
    expect(d.refold().rounds).toHaveLength(3);
  });
});
