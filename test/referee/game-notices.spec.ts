import { Logger } from '@nestjs/common';
import { type ConsequenceHandler, GameConsequences } from '../../src/referee/application/consequences.js';
import { type GameNotice, noticesOf } from '../../src/referee/application/game-notices.js';
import type { LiveGame } from '../../src/referee/application/live-games.js';
import type { RefereeMetrics } from '../../src/referee/application/metrics.port.js';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { MemoryEventStore } from '../../src/referee/store/memory-event-store.js';
import { ManualClock } from '../support/clock.js';
import { duelEngine, type DuelState } from '../support/duel-engine.js';

/**
 * What a game's appends tell its seats (noticesOf), as the players' stream and webhooks send it:
 * derived for every stored batch, a new game's included, by a handler registered as theirs are.
 */
const registry = EngineRegistry.of([duelEngine]);
const metrics: RefereeMetrics = { inc: () => {}, observe: () => {} };
const T0 = new Date('2026-12-01T10:00:00.000Z');
const MINUTE = 60_000;
beforeAll(() => Logger.overrideLogger(false));

function referee() {
  const told: GameNotice[][] = [];
  const consequences = new GameConsequences();
  const handler: ConsequenceHandler<LiveGame> = {
    projection: 'notices',
    rowsOf: async (before, after, events) => {
      told.push(noticesOf(before, after, events));
      return [];
    },
  };
  consequences.register(handler);
  const clock = new ManualClock(T0);
  return { referee: new RefereeService(new MemoryEventStore(), registry, metrics, undefined, clock, null, undefined, consequences), told, clock };
}

const FISCHER_10 = { kind: 'fischer', baseSeconds: 600 };

describe('noticesOf: what a batch of events tells the seats', () => {
  it('tells a game created with every seat taken as started, and its first mover with deadline and time left', async () => {
    const { referee: r, told } = referee();
    const { game } = await r.createGame({ kind: 'duel', timeControl: FISCHER_10 });
    const first = duelEngine.toAct(game.state as DuelState)[0];
    expect(told).toEqual([
      [
        { type: 'GAME_STARTED', to: [0, 1] },
        { type: 'YOUR_TURN', to: [first], seat: first, deadline: new Date(T0.getTime() + 10 * MINUTE).toISOString(), remainingMs: 10 * MINUTE },
      ],
    ]);
  });

  it('tells nothing while a seat is open, then the start and the first mover when the last seat is taken', async () => {
    const { referee: r, told } = referee();
    const { game } = await r.createGame({ kind: 'duel', seats: [{ name: 'Ann' }, { name: null, open: true }] });
    expect(told).toEqual([[]]);
    await r.join(game.gameId, { name: 'Bob' });
    const first = duelEngine.toAct((await r.game(game.gameId)).state as DuelState)[0];
    expect(told[1]).toEqual([
      { type: 'GAME_STARTED', to: [0, 1] },
      { type: 'YOUR_TURN', to: [first], seat: first, deadline: null, remainingMs: null },
    ]);
  });

  it('tells the next mover after a move, the receiver of time given, the other seat of a pause asked for, and the end with its reason', async () => {
    const { referee: r, told, clock } = referee();
    const { game, tokens } = await r.createGame({ kind: 'duel', seats: [{ name: 'Ann' }, { name: 'Bob' }], timeControl: FISCHER_10 });
    const id = game.gameId;
    const seat = duelEngine.toAct(game.state as DuelState)[0];
    const other = 1 - seat;
    clock.advance(MINUTE);
    const card = (game.state as DuelState).hands[seat][0];
    expect((await r.act(id, tokens[seat].token, 'm1', { type: 'play', card })).accepted).toBe(true);
    expect(told.at(-1)).toContainEqual({ type: 'YOUR_TURN', to: [other], seat: other, deadline: new Date(T0.getTime() + 11 * MINUTE).toISOString(), remainingMs: 10 * MINUTE });

    expect((await r.addTime(id, tokens[seat].token, other, 30, false)).accepted).toBe(true);
    expect(told.at(-1)).toEqual([{ type: 'TIME_GIVEN', to: [other], seat: other, ms: 30_000, bySeat: seat }]);

    expect((await r.pauseClock(id, tokens[other].token)).accepted).toBe(true);
    expect(told.at(-1)).toEqual([{ type: 'PAUSE_REQUESTED', to: [seat], seat: other }]);

    expect((await r.resign(id, tokens[other].token, 'r1')).accepted).toBe(true);
    const names = ['Ann', 'Bob'];
    expect(told.at(-1)).toContainEqual({
      type: 'GAME_OVER',
      to: [0, 1],
      reason: 'resigned',
      result: expect.objectContaining({ winners: [seat], summary: `${names[other]} resigned; ${names[seat]} wins` }),
    });
  });
});
