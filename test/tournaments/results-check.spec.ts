import { eventHash, type StoredEvent } from '../../src/referee/core/stream.js';
import { type TournamentBundle, tournamentBundle, verifyTournamentBundle } from '../../src/referee/core/tournament/audit.js';
import { type EnteredResult, enteredResult, type RecordedGame } from '../../src/referee/core/tournament/entry.js';
import { Driver, registry } from './support.js';

/**
 * Rules R3.9 and the results taken from records: a result its game cannot end with (a draw in
 * backgammon, Cerke points not adding up to 40, places at a table against the pips) is refused by
 * the decider and makes a bundle INVALID, naming the rule; with a record attached, the outcome and
 * game points are the record's, and what the organizer types besides must agree.
 */

/** Two participants paired for one game; its entries go through `enteredResult` as the service's do. */
function duel(kind: string, ruleset: unknown) {
  const d = new Driver({ kind, ruleset, format: 'swiss', rounds: 1, name: `${kind} duel` });
  d.register('A', 1900);
  d.register('B', 1800);
  d.pair();
  const [open] = d.openGames();
  const entry = (input: Omit<EnteredResult, 'round' | 'board'>, record: RecordedGame | null = null) => enteredResult(d.t, { round: open.round, board: open.board, ...input }, open.game, record);
  const record = (input: Omit<EnteredResult, 'round' | 'board'>, rec: RecordedGame | null = null) => {
    const r = entry(input, rec);
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    return d.run({ type: 'RecordResult', result: r.value, correction: false });
  };
  return { d, entry, record };
}

/** The driver's stream as a bundle (organizer results only: no game bundles are needed to check them). */
const bundleOf = (d: Driver, events: StoredEvent[] = d.events): TournamentBundle => ({
  ...tournamentBundle(d.refold(), d.events, []),
  events,
  head: { seq: events.at(-1)!.seq, hash: events.at(-1)!.hash },
});

/** The stream with event `index`'s payload changed and every hash after it recomputed: a forger's stream. */
function forged(d: Driver, index: number, payload: Record<string, unknown>): StoredEvent[] {
  const events = d.events.map((e) => ({ ...e }));
  events[index].payload = { ...events[index].payload, ...payload };
  for (let k = index; k < events.length; k++) {
    if (k > index) events[k].prevHash = events[k - 1].hash;
    events[k].hash = eventHash(d.id, events[k]);
  }
  return events;
}

describe('R3.9: only results the game can end with', () => {
  it('refuses a backgammon DRAW with the rule it breaks, and records nothing', () => {
    const { d, entry } = duel('backgammon', { matchLength: 3 });
    const before = d.events.length;
    const draw = entry({ outcome: 'DRAW', gamePoints: ['2', '2'] });
    expect(draw.ok).toBe(true);
    expect(() => d.run({ type: 'RecordResult', result: draw.ok ? draw.value : (null as never), correction: false })).toThrow(
      /^INVALID_RESULT: no backgammon game ends this way \(R3\.9\): backgammon has no draws.*backgammon\.md §12\.3/,
    );
    expect(d.events).toHaveLength(before);
    expect(d.t.rounds[0].boards[0].results).toEqual({});
  });

  it('refuses a backgammon DRAW in a knockout too, with the same rule (before the match is decided by it)', () => {
    const d = new Driver({ kind: 'backgammon', ruleset: { matchLength: 1 }, format: 'knockout', name: 'ko' });
    d.register('A', 1900);
    d.register('B', 1800);
    d.pair();
    const [open] = d.openGames();
    const draw = enteredResult(d.t, { round: 1, board: open.board, outcome: 'DRAW', gamePoints: ['1', '1'] }, open.game, null);
    expect(() => d.run({ type: 'RecordResult', result: draw.ok ? draw.value : (null as never), correction: false })).toThrow(/^INVALID_RESULT: .*\(R3\.9\): backgammon has no draws/);
  });

  it('refuses backgammon game points that contradict the winner, and takes those that fit', () => {
    const money = duel('backgammon', { matchLength: 0 });
    expect(() => money.record({ outcome: 'WIN_SEAT0', gamePoints: ['2', '1'] })).toThrow(/^INVALID_RESULT: .*money game gives its winner 1 point or more and its loser none/);
    const match = duel('backgammon', { matchLength: 3 });
    expect(() => match.record({ outcome: 'WIN_SEAT1', gamePoints: ['3', '1'] })).toThrow(/^INVALID_RESULT: .*3-point match ends when its winner reaches 3/);
    match.record({ outcome: 'WIN_SEAT1', gamePoints: ['2', '3'] });
    expect(match.d.t.finished).toBe(true);
    expect(verifyTournamentBundle(registry, bundleOf(match.d)).ok).toBe(true);
  });

  it('takes a Cerke draw at 20–20 only, and Cerke points that add up to 40', () => {
    expect(() => duel('cerke', {}).record({ outcome: 'DRAW', gamePoints: ['25', '15'] })).toThrow(/^INVALID_RESULT: .*drawn only at 20–20.*cerke\.md §13/);
    expect(() => duel('cerke', {}).record({ outcome: 'WIN_SEAT0', gamePoints: ['30', '30'] })).toThrow(/^INVALID_RESULT: .*add up to 40.*cerke\.md §5\.1/);
    const ok = duel('cerke', {});
    ok.record({ outcome: 'DRAW', gamePoints: ['20', '20'] });
    expect(ok.d.t.finished).toBe(true);
  });

  it('a tampered bundle holding a backgammon DRAW is INVALID, naming the rule, at that event', () => {
    const { d, record } = duel('backgammon', { matchLength: 3 });
    record({ outcome: 'WIN_SEAT0', gamePoints: ['3', '1'] });
    expect(verifyTournamentBundle(registry, bundleOf(d)).ok).toBe(true);
    const at = d.events.findIndex((e) => e.type === 'ResultRecorded');
    const verdict = verifyTournamentBundle(registry, bundleOf(d, forged(d, at, { ranking: [[0, 1]] })));
    expect(verdict).toMatchObject({ ok: false, badSeq: d.events[at].seq });
    expect(verdict.problem).toMatch(/backgammon has no draws.*backgammon\.md §12\.3.*\(V10\.3 step 3\)/);
    expect(verdict.summary).toMatch(/^FAILED at tournament event \d+: no backgammon game ends this way \(R3\.9\)/);
  });

  it('refuses places at a table that do not follow the pips (TA7.6), from the decider and in a bundle', () => {
    const d = new Driver({ kind: 'chicken-foot', ruleset: { players: 3 }, format: 'tables', rounds: 1, name: 'table' });
    for (const n of ['A', 'B', 'C']) d.register(n);
    d.pair();
    const [open] = d.openGames();
    const entered = enteredResult(d.t, { round: 1, board: open.board, gamePoints: ['10', '30', '20'] }, open.game, null);
    if (!entered.ok) throw new Error(entered.error.message);
    expect(entered.value.ranking).toEqual([[0], [2], [1]]);
    const upsideDown = { ...entered.value, ranking: [[1], [2], [0]] };
    expect(() => d.run({ type: 'RecordResult', result: upsideDown, correction: false })).toThrow(/^INVALID_RESULT: a seat placed below another at a table has no better game points \(TA7\.6, R3\.9\)/);
    d.run({ type: 'RecordResult', result: entered.value, correction: false });
    const at = d.events.findIndex((e) => e.type === 'ResultRecorded');
    const verdict = verifyTournamentBundle(registry, bundleOf(d, forged(d, at, { ranking: [[0, 2], [1]] })));
    expect(verdict).toMatchObject({ ok: false, badSeq: d.events[at].seq });
    expect(verdict.problem).toMatch(/seats tied at a table have the same game points \(TA7\.6, R3\.9\)/);
  });
});

describe('results from records', () => {
  const won: RecordedGame = { gameId: 'rec-1', seq: 40, hash: 'h-rec', outcome: { winners: [1], points: [1, 3], summary: 'Black wins the 3-point match 3-1' } };

  it('takes the outcome and game points from the record: an outcome alone, or nothing typed, is enough', () => {
    const { entry } = duel('backgammon', { matchLength: 3 });
    for (const typed of [{}, { outcome: 'WIN_SEAT1' as const }, { gamePoints: ['1', null] }, { outcome: 'WIN_SEAT1' as const, gamePoints: ['1', '3'] }]) {
      const r = entry(typed, won);
      expect(r.ok && [r.value.seats.map((s) => s.gamePoints), r.value.ranking, r.value.record]).toEqual([['1', '3'], [[1], [0]], { gameId: 'rec-1', seq: 40, hash: 'h-rec' }]);
    }
  });

  it('refuses what the organizer types besides the record when it says otherwise (RECORD_DISAGREES)', () => {
    const { entry } = duel('backgammon', { matchLength: 3 });
    const refused = (typed: Omit<EnteredResult, 'round' | 'board'>) => {
      const r = entry(typed, won);
      return r.ok ? null : `${r.error.code}: ${r.error.message}`;
    };
    expect(refused({ outcome: 'WIN_SEAT0' })).toBe('RECORD_DISAGREES: the record says: Black wins the 3-point match 3-1; not WIN_SEAT0');
    expect(refused({ outcome: 'DRAW' })).toMatch(/^RECORD_DISAGREES: .*not DRAW/);
    expect(refused({ outcome: 'FORFEIT_WIN_SEAT1' })).toMatch(/^RECORD_DISAGREES: .*a record is a game played, not FORFEIT_WIN_SEAT1/);
    expect(refused({ outcome: 'WIN_SEAT1', gamePoints: ['2', '3'] })).toMatch(/^RECORD_DISAGREES: .*seat 0's game points are 1, not 2/);
    expect(refused({ gamePoints: ['x', '3'] })).toMatch(/^INVALID_INPUT: gamePoints\[0\]/);
    expect(refused({ outcome: 'WIN_SEAT1' })).toBeNull();
    const unfinished = entry({}, { ...won, outcome: null });
    expect(unfinished.ok || unfinished.error.code).toBe('RECORD_DISAGREES');
  });
});
