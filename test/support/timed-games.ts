import type { Result } from '../../src/engines/kit/index.js';
import { backgammonEngine } from '../../src/games/backgammon/engine/index.js';
import { cerkeEngine } from '../../src/games/cerke/engine/index.js';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { clockView, parseTimeControl, type TimeControl } from '../../src/referee/core/game/clock.js';
import type { DecideContext, Decision, GameCommand } from '../../src/referee/core/game/commands.js';
import { gameDecider } from '../../src/referee/core/game/decider.js';
import { duelEngine, type DuelState } from './duel-engine.js';
import { type GameHistory, gameSpec } from './given-when-then.js';

/**
 * Timed games for the clock specs (test/referee/clock*.spec.ts), Given/When/Then: given a game's
 * commands at explicit times, when a command is decided at `now`, then these events, clocks and
 * deadlines. The clocks come from the stamps alone, so folding the stored events gives them again.
 */
export const registry = EngineRegistry.of([duelEngine, backgammonEngine, cerkeEngine]);
const decider = gameDecider(registry);
export const SEED = 'cd'.repeat(32);
export const GAME = 'timed';
export const T0 = Date.parse('2026-11-30T12:00:00.000Z');
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** The stamp `ms` after T0. */
export const at = (ms: number): string => new Date(T0 + ms).toISOString();

function control(input: unknown): TimeControl {
  const parsed = parseTimeControl(input);
  if (!parsed.ok || !parsed.value) throw new Error(`not a time control: ${JSON.stringify(input)}`);
  return parsed.value;
}
export const FISCHER = control({ kind: 'fischer', baseSeconds: 300, incrementSeconds: 5 });
export const DAILY = control({ kind: 'correspondence', perMoveSeconds: 86_400 });
export const BANKED = control({ kind: 'correspondence', perMoveSeconds: 86_400, bankCapSeconds: 2 * 86_400, vacationSeconds: 3 * 86_400 });

export const create = (timeControl: TimeControl | null, kind = 'duel', ruleset: unknown = { cards: 10, handSize: 3 }): GameCommand => ({
  type: 'CreateGame',
  gameId: GAME,
  kind,
  ruleset,
  seats: null,
  timeControl,
});

export const games = gameSpec(decider, GAME);
/** Deciding `now` ms after T0. */
export const ctx = (now: number): DecideContext => ({ now: at(now), serverSeed: SEED, supplied: [] });

/** Each command at its time (ms after T0), every one accepted. */
export const given = (...steps: [GameCommand, number][]) => games.given(steps.map(([command, now]) => [command, ctx(now)] as const));
/** Decides and, when accepted, moves the history on (a game played step by step). */
export const accepted = (h: GameHistory, command: GameCommand, now: number) => games.accepted(h, command, ctx(now));
export const when = (h: GameHistory, command: GameCommand, now: number) => games.when(h, command, ctx(now)).result;
export const types = (r: Result<Decision>) => games.eventsOrRefusal(r);
export const game = (h: GameHistory) => h.folded!;
export const clock = (h: GameHistory) => game(h).clock!;
export const toAct = (h: GameHistory) => game(h).engine.toAct(game(h).state)[0];
export const view = (h: GameHistory, now: number) => clockView(game(h), at(now))!;

let moves = 0;
/** The duel seat to act plays its first card. */
export function playDuel(h: GameHistory, now: number): GameHistory {
  const seat = toAct(h);
  return accepted(h, { type: 'TakeAction', seat, moveId: `m${moves++}`, bodyHash: 'b', action: { type: 'play', card: (game(h).state as DuelState).hands[seat][0] }, expectedVersion: null }, now);
}
export const timeOut = (seat: number, when: number): GameCommand => ({ type: 'TimeOut', seat, at: at(when) });
export const addTime = (seat: number, ms: number, by: 'organizer' | number, vacation = false): GameCommand => ({ type: 'AddTime', seat, ms, by, vacation });
