import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import type { DecideContext, GameCommand } from '../../src/referee/core/game/commands.js';
import { gameDecider } from '../../src/referee/core/game/decider.js';
import { foldGame } from '../../src/referee/core/game/fold.js';
import { duelEngine } from '../support/duel-engine.js';
import { gameSpec } from '../support/given-when-then.js';

/** A rated game (docs/ratings.md): only between players, marked in its first event. */
const decider = gameDecider(EngineRegistry.of([duelEngine]));
const games = gameSpec(decider, 'g1');
const ctx = (supplied: number[][] = []): DecideContext => ({ now: '2026-12-06T08:00:00.000Z', serverSeed: 'ab'.repeat(32), supplied });
const seat = (player?: string) => ({ name: null, clientSeed: null, taken: true, ...(player ? { player } : {}) });
const create = (seats: ReturnType<typeof seat>[], rated = true): GameCommand => ({ type: 'CreateGame', gameId: 'g1', kind: 'duel', ruleset: { cards: 10, handSize: 3 }, seats, rated });

describe('a rated game', () => {
  it('is created between players and says so in GameCreated, which the fold keeps', () => {
    const r = games.when(games.given([]), create([seat('p-ann'), seat('p-bob')]), ctx()).result;
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.steps[0].draft.payload).toMatchObject({ rated: true });
    expect(r.value.game.rated).toBe(true);
    const h = games.given([[create([seat('p-ann'), seat('p-bob')]), ctx()]]);
    expect(foldGame(EngineRegistry.of([duelEngine]), 'g1', h.events, 'ab'.repeat(32)).rated).toBe(true);
  });

  it('is refused with an anonymous seat, an open one or an organizer’s deal: RATED_NEEDS_PLAYERS', () => {
    expect(games.eventsOrRefusal(games.when(games.given([]), create([seat('p-ann'), seat()]), ctx()).result)).toBe('RATED_NEEDS_PLAYERS');
    expect(games.eventsOrRefusal(games.when(games.given([]), create([seat('p-ann'), { ...seat(), taken: false }]), ctx()).result)).toBe('RATED_NEEDS_PLAYERS');
    expect(games.eventsOrRefusal(games.when(games.given([]), create([seat('p-ann'), seat('p-bob')]), ctx([[1]])).result)).toBe('RATED_NEEDS_PLAYERS');
  });

  it('leaves an unrated game’s first event as it always was', () => {
    const r = games.when(games.given([]), create([seat('p-ann'), seat()], false), ctx()).result;
    expect(r.ok && 'rated' in r.value.steps[0].draft.payload).toBe(false);
  });
});
