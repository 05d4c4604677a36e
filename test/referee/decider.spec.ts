import fc from 'fast-check';
import type { ReplayEntry, Result } from '../../src/engines/kit/index.js';
import { verifyStream } from '../../src/referee/core/audit.js';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import type { DecideContext, Decision, GameCommand } from '../../src/referee/core/game/commands.js';
import { gameDecider } from '../../src/referee/core/game/decider.js';
import { foldGame } from '../../src/referee/core/game/fold.js';
import { statusOf } from '../../src/referee/core/game/state.js';
import { eventHash, type StoredEvent, StreamError } from '../../src/referee/core/stream.js';
import { type GameHistory, gameSpec } from '../support/given-when-then.js';
import { duelEngine, type DuelState } from '../support/duel-engine.js';

/**
 * The game decider, Given/When/Then: given the events of a game, when a command is decided,
 * then these events (or this refusal). No database, no clock: time and the seed are arguments.
 */
const registry = EngineRegistry.of([duelEngine]);
const decider = gameDecider(registry);
const SEED = 'ab'.repeat(32);
const NOW = '2026-11-30T12:00:00.000Z';
const GAME = 'g1';

const taken = (n = 2) => Array.from({ length: n }, () => ({ name: null, clientSeed: null, taken: true }));
const create = (over: Partial<Extract<GameCommand, { type: 'CreateGame' }>> = {}): GameCommand => ({
  type: 'CreateGame',
  gameId: GAME,
  kind: 'duel',
  ruleset: { cards: 10, handSize: 3 },
  seats: taken(),
  ...over,
});
const play = (seat: number, card: number, moveId = `m-${seat}-${card}`, expectedVersion: number | null = null): GameCommand => ({
  type: 'TakeAction',
  seat,
  moveId,
  bodyHash: `h-${moveId}`,
  action: { type: 'play', card },
  expectedVersion,
});

const games = gameSpec(decider, GAME);
/** Deciding at NOW, with `supplied` as an organizer's deal. */
const ctx = (supplied: number[][] = []): DecideContext => ({ now: NOW, serverSeed: SEED, supplied });
const decide = (h: GameHistory, command: GameCommand, supplied: number[][] = []) => games.when(h, command, ctx(supplied));
const given = (...commands: GameCommand[]) => games.given(commands.map((c) => [c, ctx()] as const));
const when = (h: GameHistory, command: GameCommand, supplied: number[][] = []) => decide(h, command, supplied).result;
const types = (r: Result<Decision>) => games.eventsOrRefusal(r);
const duel = (h: GameHistory) => h.folded!.state as DuelState;
const toAct = (h: GameHistory) => duelEngine.toAct(duel(h))[0];

describe('game decider', () => {
  it('creates a game with every seat taken: created, started and dealt from the fair source', () => {
    const r = when(given(), create());
    expect(types(r)).toEqual(['GameCreated', 'GameStarted', 'CardsShuffled']);
    const deal = r.ok && r.value.steps[2].draft.payload;
    expect(deal).toMatchObject({ chance: { source: 'fair', hidden: true, counter: [0, expect.any(Number)] } });
  });

  it('waits for an open seat, and the join that fills it starts the game', () => {
    const h = given(create({ seats: [taken(1)[0], { name: null, clientSeed: null, taken: false }] }));
    expect(h.events.map((e) => e.type)).toEqual(['GameCreated']);
    const joined = when(h, { type: 'JoinSeat', seat: null, name: 'Ada', clientSeed: 'salt', seats: [taken(1)[0], { name: null, clientSeed: null, taken: false }] });
    expect(types(joined)).toEqual(['SeatJoined', 'GameStarted', 'CardsShuffled']);
    expect(joined.ok && joined.value.seat).toBe(1);
    expect(joined.ok && joined.value.game.seatNames).toEqual([null, 'Ada']);
  });

  it('refuses a join once every seat is taken', () => {
    expect(types(when(given(create()), { type: 'JoinSeat', seat: 0, name: null, clientSeed: null, seats: taken() }))).toBe('SEAT_TAKEN');
  });

  it('refuses a move out of turn, at a stale version or of a card not in hand, deciding nothing', () => {
    const h = given(create());
    const seat = toAct(h);
    const card = duel(h).hands[seat][0];
    expect(types(when(h, play(1 - seat, duel(h).hands[1 - seat][0])))).toBe('NOT_YOUR_TURN');
    expect(types(when(h, play(seat, card, 'stale', h.folded!.version - 1)))).toBe('VERSION_CONFLICT');
    const notInHand = Array.from({ length: 10 }, (_, c) => c).find((c) => !duel(h).hands[seat].includes(c))!;
    expect(types(when(h, play(seat, notInHand)))).toBe('ILLEGAL_MOVE');
    expect(types(when(h, { ...play(seat, card), action: { type: 'jump' } } as GameCommand))).toBe('INVALID_INPUT');
  });

  it('stores the move id on the move and counts its draws as part of it', () => {
    const h = given(create());
    const seat = toAct(h);
    const even = duel(h).hands[seat].find((c) => c % 2 === 0);
    const card = even ?? duel(h).hands[seat][0];
    const { result, next } = decide(h, play(seat, card, 'move-1'));
    expect(types(result)).toEqual(even === undefined ? ['ActionTaken'] : ['ActionTaken', 'DiceRolled']);
    const first = next.events[h.events.length];
    expect(first).toMatchObject({ moveId: 'move-1', bodyHash: 'h-move-1', actor: seat });
    expect(next.folded!.commands.get('move-1')).toEqual({ actor: seat, bodyHash: 'h-move-1', fromSeq: first.seq, toSeq: next.folded!.version });
  });

  it('ends the game with its result and reveals the seed; a later move is GAME_OVER', () => {
    let h = given(create());
    while (!h.folded!.ended) {
      const seat = toAct(h);
      h = decide(h, play(seat, duel(h).hands[seat][0])).next;
    }
    expect(h.events.slice(-2).map((e) => e.type)).toEqual(['GameEnded', 'SeedRevealed']);
    expect(h.folded!.revealedSeed).toBe(SEED);
    expect(types(when(h, play(0, 0)))).toBe('GAME_OVER');
  });

  it('ends the game at once when a seat resigns', () => {
    const r = when(given(create()), { type: 'Resign', seat: 1, moveId: 'r', bodyHash: 'x', expectedVersion: null });
    expect(types(r)).toEqual(['Resigned', 'GameEnded', 'SeedRevealed']);
    expect(r.ok && r.value.game.outcome?.winners).toEqual([0]);
  });

  it('keeps how the game ended: a resignation names its seat, the rules end it otherwise', () => {
    const resigned = when(given(create()), { type: 'Resign', seat: 1, moveId: 'r', bodyHash: 'x', expectedVersion: null });
    expect(resigned.ok && resigned.value.game.ending).toEqual({ reason: 'resigned', seat: 1 });
    let h = given(create());
    while (!h.folded!.ended) h = decide(h, play(toAct(h), duel(h).hands[toAct(h)][0])).next;
    expect(h.folded!.ending).toEqual({ reason: 'rules' });
    expect(foldGame(registry, GAME, h.events, SEED).ending).toEqual({ reason: 'rules' });
  });

  describe('aborting (docs/time-controls.md, "Aborting a game")', () => {
    it('ends a game nobody moved in, by either seat, with no result: its seed revealed, its status ABORTED', () => {
      for (const seat of [0, 1]) {
        const r = when(given(create()), { type: 'AbortGame', seat });
        expect(types(r)).toEqual(['GameAborted', 'SeedRevealed']);
        const game = r.ok ? r.value.game : null;
        expect(game).toMatchObject({ ended: true, outcome: null, ending: { reason: 'aborted', seat }, revealedSeed: SEED });
        expect(statusOf(game!)).toBe('ABORTED');
      }
      // Before every seat is taken too; the stream folds back and verifies.
      const waiting = given(create({ seats: [taken(1)[0], { name: null, clientSeed: null, taken: false }] }));
      const aborted = decide(waiting, { type: 'AbortGame', seat: 0 }).next;
      expect(aborted.events.map((e) => e.type)).toEqual(['GameCreated', 'GameAborted', 'SeedRevealed']);
      expect(verifyStream(registry, GAME, aborted.events, { serverSeed: null, expectedHead: { version: 3, hash: aborted.events[2].hash, status: 'ABORTED' } }).ok).toBe(true);
    });

    it('is refused once a seat moved (ABORT_TOO_LATE), and once the game is over (GAME_OVER), deciding nothing', () => {
      const h = given(create());
      const moved = decide(h, play(toAct(h), duel(h).hands[toAct(h)][0])).next;
      expect(types(when(moved, { type: 'AbortGame', seat: 0 }))).toBe('ABORT_TOO_LATE');
      const aborted = decide(h, { type: 'AbortGame', seat: 1 }).next;
      expect(types(when(aborted, { type: 'AbortGame', seat: 0 }))).toBe('GAME_OVER');
      expect(types(when(aborted, play(toAct(h), duel(h).hands[toAct(h)][0])))).toBe('GAME_OVER');
    });
  });

  it('deals supplied values first and refuses values outside their ranges', () => {
    const ranges = duelEngine.pendingChance(duelEngine.init({ cards: 10, handSize: 3 }))!.ranges;
    const deal = ranges.map(() => 0);
    const r = when(given(), create(), [deal]);
    expect(r.ok && r.value.steps[2].draft.payload).toMatchObject({ chance: { source: 'supplied', values: deal } });
    expect(r.ok && r.value.game.randomSource).toBe('supplied');
    const bad = when(given(), create(), [ranges.map((n) => n)]);
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringContaining('supplied CardsShuffled #1') } });
  });

  it('imports a record through the same transition, naming the first entry the rules refuse', () => {
    const played = given(create());
    const seat = toAct(played);
    const values = (played.events[2].payload.chance as { values: number[] }).values;
    const ok = when(given(), {
      type: 'ImportGame',
      gameId: GAME,
      kind: 'duel',
      record: {
        ruleset: { cards: 10, handSize: 3 },
        entries: [
          { kind: 'chance', values },
          { kind: 'action', seat, action: { type: 'play', card: duel(played).hands[seat][0] } },
        ],
      },
    });
    expect((types(ok) as string[]).slice(0, 4)).toEqual(['GameCreated', 'GameStarted', 'CardsShuffled', 'ActionTaken']);
    const refused = when(given(), {
      type: 'ImportGame',
      gameId: GAME,
      kind: 'duel',
      record: {
        ruleset: { cards: 10, handSize: 3 },
        entries: [
          { kind: 'chance', values },
          { kind: 'action', seat: 1 - seat, action: { type: 'play', card: 0 } },
        ],
        labels: ['deal', 'turn 1'],
      },
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'ILLEGAL_MOVE', message: expect.stringMatching(/^turn 1: /) } });
    const missing = when(given(), {
      type: 'ImportGame',
      gameId: GAME,
      kind: 'duel',
      record: { ruleset: { cards: 10, handSize: 3 }, entries: [{ kind: 'action', seat, action: { type: 'play', card: 0 } }] },
    });
    expect(missing).toMatchObject({ ok: false, error: { code: 'ILLEGAL_MOVE', message: 'entry 1: the record is missing the CardsShuffled before this move' } });
  });

  it('refuses an unknown game kind with the kinds it plays', () => {
    expect(when(given(), create({ kind: 'chess' }))).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringContaining('duel') } });
  });
});

/** The stream with event `at` edited and every hash from it on recomputed: a forger's stream. */
function rechained(events: StoredEvent[], at: number, edit: (e: StoredEvent) => void): StoredEvent[] {
  const forged = structuredClone(events);
  edit(forged[at]);
  for (let i = at; i < forged.length; i++) {
    if (i > at) forged[i].prevHash = forged[i - 1].hash;
    forged[i].hash = eventHash(GAME, forged[i]);
  }
  return forged;
}

describe('forced moves (ruleset autoPlayForced)', () => {
  const FORCED = { cards: 10, handSize: 2, autoPlayForced: true };
  const actions = (events: { type: string; actor: number | null; payload: Record<string, unknown> }[]) =>
    events.filter((e) => e.type === 'ActionTaken').map((e) => [e.actor, e.payload.forced === true]);
  /** Both seats play their first card: each is left with one, which is forced. */
  function forcedGame(): GameHistory {
    let h = given(create({ ruleset: FORCED }));
    for (const moveId of ['m0', 'm1']) {
      const seat = toAct(h);
      h = decide(h, play(seat, duel(h).hands[seat][0], moveId)).next;
    }
    return h;
  }

  it("plays a seat's only legal action at once, as its own event, in the decision that left it", () => {
    let h = given(create({ ruleset: FORCED }));
    const first = toAct(h);
    h = decide(h, play(first, duel(h).hands[first][0], 'm0')).next;
    const second = toAct(h);
    const r = when(h, play(second, duel(h).hands[second][0], 'm1'));
    if (!r.ok) throw new Error(r.error.message);
    const drafts = r.value.steps.map((s) => s.draft);
    // The seat's own move, then each seat's last card played for it, then the end.
    expect(actions(drafts)).toEqual([
      [second, false],
      [first, true],
      [second, true],
    ]);
    expect(drafts.filter((d) => d.moveId).map((d) => d.moveId)).toEqual(['m1']);
    expect(drafts.slice(-2).map((d) => d.type)).toEqual(['GameEnded', 'SeedRevealed']);
    // Without the option the same position waits for the seats.
    const free = given(create());
    expect(duelEngine.forcedAction!({ ...duel(free), hands: [[1], [2]] })).toBeNull();
  });

  it('folds the forced moves back, and names the event where one is missing or where a free choice is marked forced', () => {
    const h = forcedGame();
    expect(verifyStream(registry, GAME, h.events, { serverSeed: SEED })).toMatchObject({ ok: true });
    const at = h.events.findIndex((e) => e.payload.forced === true);
    const unmarked = rechained(h.events, at, (e) => delete e.payload.forced);
    expect(verifyStream(registry, GAME, unmarked, { serverSeed: SEED })).toMatchObject({ ok: false, badSeq: h.events[at].seq, problem: expect.stringContaining('is forced') });
    const chosen = h.events.findIndex((e) => e.type === 'ActionTaken');
    const marked = rechained(h.events, chosen, (e) => Object.assign(e.payload, { forced: true }));
    expect(verifyStream(registry, GAME, marked, { serverSeed: SEED })).toMatchObject({ ok: false, badSeq: h.events[chosen].seq, problem: expect.stringContaining('not the only legal one') });
  });

  it('imports a record of such a game with its forced moves marked as the referee played them', () => {
    const h = forcedGame();
    const entries = h.events.flatMap((e): ReplayEntry[] =>
      e.payload.chance
        ? [{ kind: 'chance', values: (e.payload.chance as { values: number[] }).values }]
        : e.type === 'ActionTaken'
          ? [{ kind: 'action', seat: e.actor!, action: e.payload.action }]
          : [],
    );
    const imported = when(given(), { type: 'ImportGame', gameId: GAME, kind: 'duel', record: { ruleset: FORCED, entries } });
    if (!imported.ok) throw new Error(imported.error.message);
    expect(actions(imported.value.steps.map((s) => s.draft))).toEqual(actions(h.events));
  });
});

describe('folding a game stream', () => {
  /** Plays a whole duel with a chooser of cards; answers its history. */
  function wholeGame(pick: (hand: number[]) => number): GameHistory {
    let h = given(create());
    for (let i = 0; !h.folded!.ended; i++) {
      const seat = toAct(h);
      h = decide(h, play(seat, pick(duel(h).hands[seat]), `m${i}`)).next;
    }
    return h;
  }

  it('rebuilds exactly the state that deciding produced, checking every draw against the seed', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: 6, maxLength: 6 }), (picks) => {
        let i = 0;
        const h = wholeGame((hand) => hand[picks[i++ % picks.length] % hand.length]);
        const folded = foldGame(registry, GAME, h.events, SEED, { checkHashes: true });
        expect(folded.state).toEqual(h.folded!.state);
        expect(folded.version).toBe(h.folded!.version);
        expect(folded.commands).toEqual(h.folded!.commands);
        expect(folded.fairDrawsChecked).toBe(h.events.filter((e) => e.payload.chance).length);
      }),
      { numRuns: 25 },
    );
  });

  it('continues from a folded state to the same game as folding the whole stream (catching up a cached game)', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (pick, cut) => {
        const h = wholeGame((hand) => hand[pick % hand.length]);
        const at = 1 + (cut % h.events.length);
        const part = foldGame(registry, GAME, h.events.slice(0, at), SEED, { checkHashes: true });
        const rest = foldGame(registry, GAME, h.events.slice(at), SEED, { checkHashes: true, from: part });
        const whole = foldGame(registry, GAME, h.events, SEED, { checkHashes: true });
        expect(rest.state).toEqual(whole.state);
        expect([rest.version, rest.lastHash, rest.ended]).toEqual([whole.version, whole.lastHash, whole.ended]);
        expect(rest.commands).toEqual(whole.commands);
        // A gap after the folded state is refused like any other.
        if (at + 1 < h.events.length) expect(() => foldGame(registry, GAME, h.events.slice(at + 1), SEED, { from: part })).toThrow(`expected seq ${at + 1}`);
      }),
      { numRuns: 25 },
    );
  });

  it('names the event whose die was forged, even with every hash recomputed', () => {
    const h = wholeGame((hand) => hand.find((c) => c % 2 === 0) ?? hand[0]);
    const at = h.events.findIndex((e) => e.type === 'DiceRolled');
    const forged = rechained(h.events, at, (e) => {
      const chance = e.payload.chance as { values: number[] };
      chance.values = [(chance.values[0] + 1) % 6];
    });
    expect(() => foldGame(registry, GAME, forged, SEED)).toThrow(StreamError);
    expect(verifyStream(registry, GAME, forged, { serverSeed: null })).toMatchObject({ ok: false, badSeq: forged[at].seq });
  });

  it('recognises chance events by type and refuses an event of no known type', () => {
    const h = given(create());
    const odd = { ...h.events[1], type: 'Teleported', payload: { to: 3 } };
    expect(verifyStream(registry, GAME, [h.events[0], { ...odd, hash: eventHash(GAME, odd) }], { serverSeed: null })).toMatchObject({
      ok: false,
      badSeq: 2,
      problem: 'event 2: unknown event type Teleported',
    });
  });

  it('refuses a stream that skips a seq or breaks the chain', () => {
    const h = given(create());
    expect(() => foldGame(registry, GAME, [h.events[0], h.events[2]], null)).toThrow('expected seq 2');
    expect(() => foldGame(registry, GAME, [h.events[0], { ...h.events[1], prevHash: '1'.repeat(64) }], null)).toThrow('prevHash');
  });
});
