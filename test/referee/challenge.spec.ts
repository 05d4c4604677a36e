import { type ChallengeCommand, type ChallengeState, checkChallengeGame, decideChallenge, foldChallenge, statusAt, timeControlInput } from '../../src/referee/core/challenge/challenge.js';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { parseTimeControl } from '../../src/referee/core/game/clock.js';
import { advanceHead, chainEvents, emptyHead, type StoredEvent } from '../../src/referee/core/stream.js';
import { duelEngine } from '../support/duel-engine.js';

const NOW = '2026-12-06T10:00:00.000Z';
const LATER = '2026-12-06T11:00:00.000Z';
const WEEK_LATER = '2026-12-13T10:00:00.000Z';
const registry = EngineRegistry.of([duelEngine]);
const game = { kind: 'duel', ruleset: { cards: 10, handSize: 3 }, timeControl: null };
const issue = (c: Partial<Extract<ChallengeCommand, { type: 'IssueChallenge' }>> = {}): ChallengeCommand => ({
  type: 'IssueChallenge',
  challengerId: 'pl-ada',
  challengedId: 'pl-bob',
  game,
  seat: 'first',
  message: null,
  expiresInSeconds: null,
  ...c,
});
const accept = (playerId = 'pl-bob', coin = 0): ChallengeCommand => ({ type: 'AcceptChallenge', playerId, gameId: 'g-1', coin });

/** Decides `commands` one after another at `at`, chaining what each decided; the stream, the state and the refusals. */
function run(commands: ChallengeCommand[], at = NOW): { state: ChallengeState | null; events: StoredEvent[]; refusals: string[] } {
  let state: ChallengeState | null = null;
  let head = emptyHead();
  const events: StoredEvent[] = [];
  const refusals: string[] = [];
  for (const c of commands) {
    const d = decideChallenge('ch-1', state, c, c.type === 'IssueChallenge' ? NOW : at);
    if (!d.ok) {
      refusals.push(d.error.code);
      continue;
    }
    const chained = chainEvents('ch-1', head, d.value.drafts);
    head = advanceHead(head, chained, () => false);
    events.push(...chained);
    state = d.value.state;
  }
  return { state, events, refusals };
}

describe('a challenge', () => {
  it('is issued, open for 7 days by default, and accepted by the player challenged: the game id and the seats are stored', () => {
    const { state, events, refusals } = run([issue(), accept()]);
    expect(refusals).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(['ChallengeIssued', 'ChallengeAccepted']);
    expect(state).toMatchObject({ status: 'ACCEPTED', acceptedBy: 'pl-bob', gameId: 'g-1', challengerSeat: 0, expiresAt: WEEK_LATER, issuedAt: NOW });
    // The stream folds back to the state decided.
    expect(foldChallenge('ch-1', events)).toMatchObject({ ...state, version: 2 });
  });

  it("puts the challenger in the seat it chose, or the coin's for RANDOM", () => {
    expect(run([issue({ seat: 'second' }), accept('pl-bob', 0)]).state?.challengerSeat).toBe(1);
    expect(run([issue({ seat: 'random' }), accept('pl-bob', 1)]).state?.challengerSeat).toBe(1);
    expect(run([issue({ seat: 'random' }), accept('pl-bob', 0)]).state?.challengerSeat).toBe(0);
  });

  it('answers a retry of its acceptance by the same player with nothing new; any other answer once accepted is CHALLENGE_CLOSED', () => {
    const { events, refusals } = run([issue(), accept(), accept(), { type: 'DeclineChallenge', playerId: 'pl-bob', reason: null }, { type: 'CancelChallenge', playerId: 'pl-ada' }]);
    expect(events).toHaveLength(2);
    expect(refusals).toEqual(['CHALLENGE_CLOSED', 'CHALLENGE_CLOSED']);
  });

  it("refuses a challenge to oneself, accepting or declining one's own (OWN_CHALLENGE), and another player's answer (NOT_YOUR_CHALLENGE)", () => {
    expect(run([issue({ challengedId: 'pl-ada' })]).refusals).toEqual(['OWN_CHALLENGE']);
    const { events, refusals } = run([
      issue(),
      accept('pl-ada'),
      { type: 'DeclineChallenge', playerId: 'pl-ada', reason: null },
      accept('pl-cy'),
      { type: 'DeclineChallenge', playerId: 'pl-cy', reason: null },
      { type: 'CancelChallenge', playerId: 'pl-bob' },
    ]);
    expect(refusals).toEqual(['OWN_CHALLENGE', 'OWN_CHALLENGE', 'NOT_YOUR_CHALLENGE', 'NOT_YOUR_CHALLENGE', 'NOT_YOUR_CHALLENGE']);
    expect(events).toHaveLength(1);
  });

  it('is declined with a reason, or cancelled by its challenger', () => {
    expect(run([issue(), { type: 'DeclineChallenge', playerId: 'pl-bob', reason: '  not today ' }]).state).toMatchObject({ status: 'DECLINED', reason: 'not today' });
    expect(run([issue(), { type: 'CancelChallenge', playerId: 'pl-ada' }]).state).toMatchObject({ status: 'CANCELLED' });
  });

  it('reads EXPIRED past its expiry, and refuses an acceptance or decline then (CHALLENGE_EXPIRED)', () => {
    const { state, refusals } = run([issue({ expiresInSeconds: 60 }), accept(), { type: 'DeclineChallenge', playerId: 'pl-bob', reason: null }], LATER);
    expect(refusals).toEqual(['CHALLENGE_EXPIRED', 'CHALLENGE_EXPIRED']);
    expect(state && statusAt(state, LATER)).toBe('EXPIRED');
    expect(state && statusAt(state, NOW)).toBe('OPEN');
  });

  it('open to anyone: any other player accepts it, nobody declines it', () => {
    const open = issue({ challengedId: null });
    expect(run([open, { type: 'DeclineChallenge', playerId: 'pl-bob', reason: null }]).refusals).toEqual(['NOT_YOUR_CHALLENGE']);
    expect(run([open, accept('pl-cy'), accept('pl-bob')])).toMatchObject({ state: { acceptedBy: 'pl-cy' }, refusals: ['CHALLENGE_CLOSED'] });
  });

  it('bounds its message and its expiry', () => {
    expect(run([issue({ message: 'x'.repeat(501) })]).refusals).toEqual(['INVALID_INPUT']);
    expect(run([issue({ message: 'a\u0000b' })]).refusals).toEqual(['INVALID_INPUT']);
    expect(run([issue({ expiresInSeconds: 59 })]).refusals).toEqual(['INVALID_INPUT']);
    expect(run([issue({ expiresInSeconds: 31 * 86_400 })]).refusals).toEqual(['INVALID_INPUT']);
    expect(run([issue({ message: 'Good luck!' })]).state?.message).toBe('Good luck!');
  });
});

describe("a challenge's game", () => {
  it('is checked as createGame checks it: a known kind, a ruleset its engine takes, a time control', () => {
    expect(checkChallengeGame(registry, 'duel', { cards: 10, handSize: 3 }, null)).toMatchObject({ ok: true, value: { kind: 'duel', timeControl: null } });
    expect(checkChallengeGame(registry, 'chess', {}, null)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(checkChallengeGame(registry, 'duel', { cards: 'many' }, null).ok).toBe(false);
    expect(checkChallengeGame(registry, 'duel', {}, { kind: 'fischer' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('keeps its time control in a form createGame takes back as it was', () => {
    for (const input of [
      { kind: 'fischer', baseSeconds: 300, incrementSeconds: 5 },
      { kind: 'correspondence', perMoveSeconds: 86_400, bankCapSeconds: null, vacationSeconds: 0 },
    ]) {
      const parsed = parseTimeControl(input);
      expect(parsed.ok && parseTimeControl(timeControlInput(parsed.value))).toEqual(parsed);
    }
  });
});
