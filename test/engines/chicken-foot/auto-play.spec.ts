import { type ChickenFootAction, type ChickenFootState, chickenFootEngine, parseRuleset } from '../../../src/games/chicken-foot/engine/index.js';
import { replay, type Seat } from '../../../src/engines/kit/index.js';
import { EngineRegistry } from '../../../src/referee/core/engine-registry.js';
import { clockView, deadlineOf, parseTimeControl, type TimeControl } from '../../../src/referee/core/game/clock.js';
import type { GameCommand } from '../../../src/referee/core/game/commands.js';
import { gameDecider } from '../../../src/referee/core/game/decider.js';
import { foldGame } from '../../../src/referee/core/game/fold.js';
import { replayEntries } from '../../../src/referee/core/game/views.js';
import { type GameHistory, gameSpec } from '../../support/given-when-then.js';
import { DRAW, engine, PASS, play, playAll, position, rules } from './helpers.js';

/**
 * A Chicken Foot seat that runs out of time is auto-played until the round ends, by a fixed
 * rule: draw when it must draw, pass when it must pass, otherwise play the tile with the lowest
 * pip total (ties: the first such play in the engine's order).
 */
const autoAction = (s: ChickenFootState, seat: Seat) => engine.autoAction!(s, seat);

describe('forced moves (ruleset autoPlayForced)', () => {
  it('gives the seat to act its only legal action (a draw, a pass, a single play), and nothing where it has a choice or without the option', () => {
    const must = (ruleset: Record<string, unknown>, hands: string[][], yardTop: string[]) => position({ ruleset: { players: 3, ...ruleset }, hub: 9, hands, yardTop, yardSize: 6, turn: 0 });
    const on = { autoPlayForced: true };
    expect(engine.forcedAction!(must(on, [['1-2', '3-4'], ['9-3'], ['9-4']], ['5-6']))).toEqual({ seat: 0, action: DRAW });
    expect(engine.forcedAction!(must(on, [['9-1', '3-4'], ['9-3'], ['9-4']], ['5-6']))).toEqual({ seat: 0, action: play('9-1', 'hub') });
    expect(engine.forcedAction!(must(on, [['9-1', '9-2'], ['9-3'], ['9-4']], ['5-6']))).toBeNull();
    expect(engine.forcedAction!(must({}, [['1-2', '3-4'], ['9-3'], ['9-4']], ['5-6']))).toBeNull();
    expect(rules({ players: 3, autoPlayForced: true }).autoPlayForced).toBe(true);
    expect(rules({ players: 3, autoPlayForced: false })).not.toHaveProperty('autoPlayForced');
  });
});

describe('the auto-play rule', () => {
  it('plays the tile with the lowest pip total', () => {
    const s = position({ ruleset: { players: 3 }, hub: 9, hands: [['9-5', '9-1', '9-3', '2-2'], ['3-3'], ['4-4']], yardSize: 5, turn: 0 });
    expect(autoAction(s, 0)).toEqual(play('9-1', 'hub'));
  });

  it('on a tie, plays the first of them in the engine order', () => {
    // Open ends 5, 3 and 4: 1-5 and 3-3 both total 6, and 1-5 comes first.
    const s = position({ ruleset: { players: 3 }, hub: 9, arms: ['9-5', '9-3', '9-4'], hands: [['3-3', '5-1', '4-6'], ['2-2'], ['0-0']], yardSize: 5, turn: 0 });
    expect(engine.legalActions(s, 0).filter((a) => a.type === 'play')).toHaveLength(3);
    expect(autoAction(s, 0)).toEqual(play('1-5', '9-5'));
  });

  it('draws when it must draw, then plays the drawn tile or passes', () => {
    const s = position({ ruleset: { players: 3 }, hub: 9, hands: [['1-2', '3-4'], ['9-3'], ['9-4']], yardTop: ['9-0', '5-6'], yardSize: 6, turn: 0 });
    expect(autoAction(s, 0)).toEqual(DRAW);
    const drew = playAll(s, [[0, DRAW]]);
    expect(autoAction(drew, 0)).toEqual(play('0-9', 'hub'));
    const miss = position({ ruleset: { players: 3 }, hub: 9, hands: [['1-2', '3-4'], ['9-3'], ['9-4']], yardTop: ['5-6'], yardSize: 6, turn: 0 });
    expect(autoAction(playAll(miss, [[0, DRAW]]), 0)).toEqual(PASS);
  });

  it('passes when it must pass: no play and nothing left to draw', () => {
    const s = position({ ruleset: { players: 3 }, hub: 9, hands: [['1-2', '3-4'], ['9-3'], ['9-4']], yardSize: 1, turn: 0 });
    expect(autoAction(s, 0)).toEqual(PASS);
  });

  it('has nothing to play for a seat that is not to act', () => {
    const s = position({ ruleset: { players: 3 }, hub: 9, hands: [['9-1'], ['9-3'], ['9-4']], yardSize: 5, turn: 0 });
    expect(autoAction(s, 1)).toBeNull();
  });

  it('is the default; the ruleset option onTimeout "forfeit" concedes instead, and only that choice is written in the ruleset', () => {
    expect(engine.onTimeout!(rules({ players: 3 }))).toBe('autoPlay');
    expect(rules({ players: 3 })).not.toHaveProperty('onTimeout');
    expect(rules({ players: 3, onTimeout: 'autoPlay' })).toEqual(rules({ players: 3 }));
    expect(rules({ players: 3, onTimeout: 'forfeit' }).onTimeout).toBe('forfeit');
    expect(engine.onTimeout!(rules({ players: 3, onTimeout: 'forfeit' }))).toBe('concede');
    expect(parseRuleset({ players: 3, onTimeout: 'robot' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', message: expect.stringContaining('onTimeout must be one of "autoPlay", "forfeit"') },
    });
  });
});

// ------------------------------------------------------------------ through the referee

const registry = EngineRegistry.of([chickenFootEngine]);
const decider = gameDecider(registry);
const SEED = 'ef'.repeat(32);
const GAME = 'cf-timed';
const T0 = Date.parse('2026-12-01T09:00:00.000Z');
const at = (ms: number): string => new Date(T0 + ms).toISOString();
const parsed = parseTimeControl({ kind: 'fischer', baseSeconds: 300, incrementSeconds: 5 });
const FISCHER = (parsed.ok && parsed.value) as TimeControl;
/** Three players on a double-6 set: seven short rounds. */
const SHORT = { preset: 'classic', players: 3, setMax: 6, handSize: 5 };

const games = gameSpec(decider, GAME);
/** `h` after `command`, decided `now` ms after T0 and accepted. */
const then = (h: GameHistory, command: GameCommand, now: number) => games.accepted(h, command, { now: at(now), serverSeed: SEED, supplied: [] });

const created = (ruleset: unknown) => then(games.nothing, { type: 'CreateGame', gameId: GAME, kind: 'chicken-foot', ruleset, seats: null, timeControl: FISCHER }, 0);
const game = (h: GameHistory) => h.folded!;
const cf = (h: GameHistory) => game(h).state as ChickenFootState;
const roundNumber = (h: GameHistory) => engine.roundOf!(cf(h));
const running = (h: GameHistory) => deadlineOf(game(h))?.seat;

/** The seat whose clock runs plays its first legal action. */
function human(h: GameHistory, now: number): GameHistory {
  const seat = running(h)!;
  const action: ChickenFootAction = engine.legalActions(cf(h), seat)[0];
  return then(h, { type: 'TakeAction', seat, moveId: `m${h.events.length}`, bodyHash: 'b', action, expectedVersion: null }, now);
}

describe('a timed-out Chicken Foot seat, through the referee', () => {
  it('is auto-played to the end of the round, right after each event that makes it to act, then plays normally again', () => {
    let h = created(SHORT);
    let now = 0;
    while (running(h) !== 1) h = human(h, (now += 1000));
    const { at: deadline } = deadlineOf(game(h))!;
    const round = roundNumber(h);
    const before = h.events.length;
    h = then(h, { type: 'TimeOut', seat: 1, at: deadline }, (now += 400_000));
    const decided = h.events.slice(before);
    expect(decided[0]).toMatchObject({ type: 'TimedOut', actor: null, createdAt: deadline, payload: { seat: 1, rule: 'autoPlay' } });
    expect(decided[1]).toMatchObject({ type: 'ActionTaken', actor: 1, moveId: null, createdAt: deadline, payload: { auto: true } });
    expect(clockView(game(h), deadline)).toMatchObject({ autoPlayed: [1], timedOut: [1], running: [2] });

    // The others play on; each of their moves that hands the turn to seat 1 brings its auto-played turn along.
    now = Date.parse(deadline) - T0;
    while (roundNumber(h) === round) {
      const mover = running(h)!;
      const from = h.events.length;
      h = human(h, (now += 1000));
      const mine = h.events.slice(from);
      for (const e of mine.filter((e) => e.actor === 1)) expect(e).toMatchObject({ type: 'ActionTaken', moveId: null, payload: { auto: true } });
      // The auto-played turns answer a retry of the move that led to them.
      const command = game(h).commands.get(mine[0].moveId!)!;
      expect(command).toMatchObject({ actor: mover, fromSeq: mine[0].seq });
      if (mine.at(-1)!.type === 'ActionTaken') expect(command.toSeq).toBe(mine.at(-1)!.seq);
    }
    expect(clockView(game(h), at(now))).toMatchObject({ autoPlayed: [], timedOut: [1] });
    // Back at the table with a fresh clock, seat 1 plays its own turn.
    while (running(h) !== 1) h = human(h, (now += 1000));
    expect(clockView(game(h), at(now))!.remainingMs[1]).toBe(300_000);
    h = human(h, (now += 1000));
    expect(h.events.filter((e) => e.actor === 1 && e.type === 'ActionTaken').at(-1)).toMatchObject({ payload: { action: expect.anything() }, moveId: expect.any(String) });
    expect(h.events.filter((e) => e.actor === 1 && e.type === 'ActionTaken').at(-1)!.payload).not.toHaveProperty('auto');

    const folded = foldGame(registry, GAME, h.events, SEED, { checkHashes: true });
    expect(folded.state).toEqual(game(h).state);
    expect(folded.clock).toEqual(game(h).clock);
    // A record has no clocks: the auto-played turns replay as plain moves (marked "auto" for the record).
    const entries = replayEntries(h.events);
    expect(entries.some((e) => e.kind === 'action' && e.auto)).toBe(true);
    const replayed = replay(engine, cf(h).ruleset, entries as never);
    expect(replayed.ok && replayed.state).toEqual(cf(h));
  });

  it('refuses a forged stream where seat 1 plays for itself while auto-played, or the referee plays another action', () => {
    let h = created(SHORT);
    let now = 0;
    while (running(h) !== 1) h = human(h, (now += 1000));
    h = then(h, { type: 'TimeOut', seat: 1, at: deadlineOf(game(h))!.at }, (now += 400_000));
    const auto = h.events.findIndex((e) => e.type === 'ActionTaken' && e.payload.auto);
    const unmarked = h.events.slice(0, auto + 1).map((e, i) => (i === auto ? { ...e, payload: { action: e.payload.action } } : e));
    expect(() => foldGame(registry, GAME, unmarked, null)).toThrow('seat 1 is auto-played: the referee plays its turn before anything else');
    const other = (h.events[auto].payload.action as ChickenFootAction).type === 'pass' ? DRAW : PASS;
    const forged = h.events.slice(0, auto + 1).map((e, i) => (i === auto ? { ...e, payload: { action: other, auto: true } } : e));
    expect(() => foldGame(registry, GAME, forged, null)).toThrow("the auto-played action is not the one the game's rule gives");
  });

  it('still ends when every seat times out, round after round', () => {
    let h = created(SHORT);
    let timeouts = 0;
    while (!game(h).ended) {
      const next = deadlineOf(game(h))!;
      h = then(h, { type: 'TimeOut', seat: next.seat, at: next.at }, Date.parse(next.at) - T0);
      timeouts++;
      expect(timeouts).toBeLessThanOrEqual(3 * 7);
    }
    expect(cf(h).rounds).toHaveLength(7);
    expect(game(h).outcome?.details).toMatchObject({ reason: 'completed' });
    expect(foldGame(registry, GAME, h.events, SEED, { checkHashes: true }).outcome).toEqual(game(h).outcome);
  });

  it('with onTimeout "forfeit", the seat concedes the whole game', () => {
    let h = created({ ...SHORT, onTimeout: 'forfeit' });
    const seat = running(h)!;
    h = then(h, { type: 'TimeOut', seat, at: deadlineOf(game(h))!.at }, 400_000);
    expect(h.events.slice(-3).map((e) => e.type)).toEqual(['TimedOut', 'GameEnded', 'SeedRevealed']);
    expect(h.events.at(-3)!.payload).toEqual({ seat, rule: 'concede' });
    expect(game(h).outcome?.details).toMatchObject({ reason: 'resigned', resigned: seat });
    expect(replayEntries(h.events).at(-1)).toEqual({ kind: 'resign', seat, timedOut: true });
  });
});
