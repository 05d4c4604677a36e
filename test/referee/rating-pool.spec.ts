import fc from 'fast-check';
import { canonicalJson } from '../../src/referee/core/canonical.js';
import { isProvisional, type PoolState, placesOf, type RatedGame, ratingPool } from '../../src/referee/core/rating/pool.js';
import { ratingDrafts, recomputePool } from '../../src/referee/core/rating/recompute.js';
import { chainEvents, foldStream, type StoredEvent } from '../../src/referee/core/stream.js';

const PLAYERS = ['p-ann', 'p-bob', 'p-cat', 'p-dan', 'p-eve'];

/** A pool's stream from its games, in order, as the service appends them. */
function replay(games: readonly RatedGame[]): StoredEvent[] {
  const poolId = `ratings:${games[0].kind}:${games[0].family}`;
  let events: StoredEvent[] = [];
  let pool: PoolState | null = null;
  for (const game of games) {
    const { drafts } = ratingDrafts(pool, game, game.endedAt);
    const last = events.at(-1);
    events = [...events, ...chainEvents(poolId, last ? { version: last.seq, lastHash: last.hash } : { version: 0, lastHash: '0'.repeat(64) }, drafts)];
    pool = foldStream(ratingPool, poolId, events, null);
  }
  return events;
}

const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 3_600_000).toISOString();

/** Two-seat games between distinct players: [a, b, a's place, b's place]. */
const twoSeatGames = (kind: string) =>
  fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.constantFrom<[number, number]>([1, 2], [2, 1], [1, 1])), { minLength: 1, maxLength: 25 }).map((list) =>
    list.map(
      ([a, shift, places], i): RatedGame => ({
        gameId: `g${i}`,
        kind,
        family: 'live',
        finalHash: `${i}`.padStart(64, 'a'),
        endedAt: day(i * 7),
        seats: [
          { player: PLAYERS[a], place: places[0] },
          { player: PLAYERS[(a + shift) % 5], place: places[1] },
        ],
      }),
    ),
  );

/** Tables of four with random places (ties allowed). */
const tableGames = fc
  .array(fc.tuple(fc.shuffledSubarray(PLAYERS, { minLength: 4, maxLength: 4 }), fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 4, maxLength: 4 })), { minLength: 1, maxLength: 15 })
  .map((list) =>
    list.map(
      ([players, places], i): RatedGame => ({
        gameId: `t${i}`,
        kind: 'chicken-foot',
        family: 'untimed',
        finalHash: `${i}`.padStart(64, 'b'),
        endedAt: day(i),
        seats: players.map((player, s) => ({ player, place: places[s] })),
      }),
    ),
  );

const gameOf = (games: readonly RatedGame[]) => (id: string) => games.find((g) => g.gameId === id) ?? null;

describe('a ratings pool', () => {
  it.each([['backgammon'], ['cerke']])('replays %s games to byte-identical ratings, and a changed result changes exactly the ratings from it on', (kind) => {
    fc.assert(
      fc.property(twoSeatGames(kind), fc.nat(), (games, pick) => {
        const once = replay(games);
        expect(canonicalJson(replay(games))).toBe(canonicalJson(once));
        expect(recomputePool(`ratings:${kind}:live`, once, gameOf(games))).toEqual([]);
        const k = pick % games.length;
        const seats = games[k].seats;
        const flipped = seats[0].place === seats[1].place ? [1, 2] : [seats[1].place, seats[0].place];
        const changed = games.map((g, i) =>
          i === k
            ? {
                ...g,
                seats: [
                  { ...seats[0], place: flipped[0] },
                  { ...seats[1], place: flipped[1] },
                ],
              }
            : g,
        );
        const other = replay(changed);
        // Events before the changed game's are the same bytes; its own differs.
        const at = once.findIndex((e) => e.payload.gameId === games[k].gameId);
        expect(canonicalJson(other.slice(0, at))).toBe(canonicalJson(once.slice(0, at)));
        expect(canonicalJson(other[at].payload)).not.toBe(canonicalJson(once[at].payload));
        // And the stored stream no longer recomputes from the changed games.
        expect(recomputePool(`ratings:${kind}:live`, once, gameOf(changed)).map((m) => m.gameId)).toContain(games[k].gameId);
      }),
      { numRuns: 60 },
    );
  });

  it('replays Chicken Foot tables to byte-identical ratings that recompute exactly', () => {
    fc.assert(
      fc.property(tableGames, (games) => {
        const once = replay(games);
        expect(canonicalJson(replay(games))).toBe(canonicalJson(once));
        expect(recomputePool('ratings:chicken-foot:untimed', once, gameOf(games))).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });

  it('stores six decimals, and a new player is provisional', () => {
    const events = replay([
      {
        gameId: 'g1',
        kind: 'backgammon',
        family: 'live',
        finalHash: 'a'.repeat(64),
        endedAt: day(0),
        seats: [
          { player: 'p-ann', place: 1 },
          { player: 'p-bob', place: 2 },
        ],
      },
    ]);
    expect(events.map((e) => e.type)).toEqual(['PoolOpened', 'GameRated']);
    expect(events[0].moveId).toBe('game:g1');
    const pool = foldStream(ratingPool, 'ratings:backgammon:live', events, null);
    const ann = pool.players.get('p-ann');
    expect(ann).toMatchObject({ games: 1 });
    for (const v of [ann?.rating, ann?.rd, ann?.volatility]) expect(Math.round((v as number) * 1e6) / 1e6).toBe(v);
    expect(ann && ann.rating > 1500).toBe(true);
    expect(ann && isProvisional(pool, ann)).toBe(true);
  });

  it('grows an inactive player’s RD before the next game, at most to the initial 350', () => {
    const game = (i: number, days: number): RatedGame => ({
      gameId: `g${i}`,
      kind: 'backgammon',
      family: 'correspondence',
      finalHash: 'd'.repeat(64),
      endedAt: new Date(Date.UTC(2026, 0, 1) + days * 86_400_000).toISOString(),
      seats: [
        { player: 'p-ann', place: 1 },
        { player: 'p-bob', place: 2 },
      ],
    });
    const seatOf = (events: StoredEvent[], gameId: string) => (events.find((e) => e.payload.gameId === gameId)!.payload.seats as { before: { rd: number }; after: { rd: number } }[])[0];
    const soon = replay([game(0, 0), game(1, 1)]);
    const late = replay([game(0, 0), game(1, 400)]);
    // The second game starts from the stored RD; a year without games makes it count for less certainty.
    expect(seatOf(late, 'g1').before).toEqual(seatOf(soon, 'g1').before);
    expect(seatOf(late, 'g1').after.rd).toBeGreaterThan(seatOf(soon, 'g1').after.rd);
    const never = replay([game(0, 0), game(1, 100_000)]);
    expect(seatOf(never, 'g1').after.rd).toBeLessThan(350);
  });

  it('refuses a stream whose rating before a game is not the one the pool holds', () => {
    const games: RatedGame[] = [0, 1].map((i) => ({
      gameId: `g${i}`,
      kind: 'cerke',
      family: 'live',
      finalHash: 'c'.repeat(64),
      endedAt: day(i),
      seats: [
        { player: 'p-ann', place: 1 },
        { player: 'p-bob', place: 2 },
      ],
    }));
    const events = replay(games);
    const forged = events.map((e) => (e.seq === 3 ? { ...e, payload: JSON.parse(JSON.stringify(e.payload).replace(/"rating":1[0-9.]+/, '"rating":1600')) } : e));
    const rechained = chainEvents('ratings:cerke:live', { version: 0, lastHash: '0'.repeat(64) }, forged);
    expect(() => foldStream(ratingPool, 'ratings:cerke:live', rechained, null)).toThrow(/not the one the pool holds/);
  });
});

describe('places', () => {
  const engine = (pointsOrder?: 'lower') => ({ pointsOrder }) as never;
  it('puts the winners first, then the fewest points in Chicken Foot; equal seats share a place', () => {
    expect(placesOf({ seatCount: 4, engine: engine('lower'), outcome: { winners: [2], points: [10, 5, 0, 5], summary: '' } })).toEqual([4, 2, 1, 2]);
  });
  it('rates a two-seat game by its winner alone, and a draw as a tie', () => {
    expect(placesOf({ seatCount: 2, engine: engine(), outcome: { winners: [1], points: [0, 3], summary: '' } })).toEqual([2, 1]);
    expect(placesOf({ seatCount: 2, engine: engine(), outcome: { winners: [], points: [0, 0], summary: '' } })).toEqual([1, 1]);
  });
});
