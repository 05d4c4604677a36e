import { fail, ok, type Result } from '../../../engines/kit/index.js';
import type { TimeControl } from '../game/clock.js';
import type { GameState } from '../game/state.js';
import { type Aggregate, decodeTyped, type DraftEvent, isObject, MALFORMED, type PayloadChecks, type StoredEvent } from '../stream.js';
import { round6 } from './exact-math.js';
import { glicko2, inflatedRd } from './glicko2.js';
import { plackettLuce } from './weng-lin.js';

/**
 * A ratings pool: the ratings of one game kind in one time-control family, as a stream of the
 * same hash chain as every aggregate (docs/ratings.md). Its first event says how it rates
 * (PoolOpened: the system and its parameters); each later one is one rated game's update
 * (GameRated), naming the game and its final hash, with every seat's rating before and after.
 * Every number is stored rounded to six decimals and the next update is computed from the
 * stored numbers, so a recomputation from the games' bundles reaches the same bytes.
 */

export type RatingSystem = 'glicko2' | 'weng-lin';
/** live: a Fischer clock; correspondence: days per move; untimed: no clock. */
export type RatingFamily = 'live' | 'correspondence' | 'untimed';
export const RATING_FAMILIES: readonly RatingFamily[] = ['live', 'correspondence', 'untimed'];

export interface PoolParameters {
  rating: number;
  rd: number;
  /** Glicko-2's initial volatility; null for Weng-Lin. */
  volatility: number | null;
  /** Glicko-2's τ; Weng-Lin's β. */
  tau: number | null;
  beta: number | null;
  /** Glicko-2: the RD inactivity grows a rating to, at most; rating periods per day of inactivity. */
  maxRd: number;
  periodsPerDay: number;
  /** A rating is provisional while its RD is above this. */
  provisionalRd: number;
}

/** lichess's choices for Glicko-2 (as the issue names them), and openskill's for Weng-Lin on the same scale. */
export function parametersOf(system: RatingSystem): PoolParameters {
  return system === 'glicko2'
    ? { rating: 1500, rd: 350, volatility: 0.06, tau: 0.75, beta: null, maxRd: 350, periodsPerDay: 0.21436, provisionalRd: 110 }
    : { rating: 1500, rd: 350, volatility: null, tau: null, beta: 175, maxRd: 350, periodsPerDay: 0, provisionalRd: 110 };
}

/** Kinds played by exactly two seats are rated by Glicko-2; the others (Chicken Foot's tables of 2-8) by Weng-Lin. */
const TWO_SEAT_KINDS = new Set(['backgammon', 'cerke']);
export const ratingSystemOf = (kind: string): RatingSystem => (TWO_SEAT_KINDS.has(kind) ? 'glicko2' : 'weng-lin');

export const poolIdOf = (kind: string, family: RatingFamily): string => `ratings:${kind}:${family}`;
export const isPoolId = (id: string): boolean => /^ratings:[a-z0-9-]{1,40}:(live|correspondence|untimed)$/.test(id);

/** One player's rating as stored: six decimals. `lastAt`: the end of the player's last rated game. */
export interface PlayerRating {
  rating: number;
  rd: number;
  volatility: number | null;
  games: number;
  lastAt: string | null;
}

export interface RatedSeat {
  player: string;
  seat: number;
  /** 1 the best; seats that tie share a place. */
  place: number;
  before: PlayerRating;
  after: PlayerRating;
}

export type PoolOpenedPayload = { kind: string; family: RatingFamily; system: RatingSystem; parameters: PoolParameters };
export type GameRatedPayload = { gameId: string; finalHash: string; endedAt: string; seats: RatedSeat[] };

export type PoolEvent = { type: 'PoolOpened'; payload: PoolOpenedPayload } | { type: 'GameRated'; payload: GameRatedPayload };

export interface PoolState {
  poolId: string;
  kind: string;
  family: RatingFamily;
  system: RatingSystem;
  parameters: PoolParameters;
  players: Map<string, PlayerRating>;
  /** Games rated, by id: a game is rated once. */
  games: Set<string>;
}

/** What a finished rated game gives its pool: who sat where and finished in which place. */
export interface RatedGame {
  gameId: string;
  kind: string;
  family: RatingFamily;
  finalHash: string;
  endedAt: string;
  seats: { player: string; place: number }[];
}

const isRating = (v: unknown): v is PlayerRating =>
  isObject(v) &&
  typeof v.rating === 'number' &&
  typeof v.rd === 'number' &&
  (v.volatility === null || typeof v.volatility === 'number') &&
  Number.isInteger(v.games) &&
  (v.lastAt === null || typeof v.lastAt === 'string');
const isSeat = (v: unknown): boolean => isObject(v) && typeof v.player === 'string' && Number.isInteger(v.seat) && Number.isInteger(v.place) && isRating(v.before) && isRating(v.after);

const CHECKS: PayloadChecks<PoolEvent['type']> = {
  PoolOpened: (p) => typeof p.kind === 'string' && typeof p.family === 'string' && (p.system === 'glicko2' || p.system === 'weng-lin') && isObject(p.parameters),
  GameRated: (p) => typeof p.gameId === 'string' && typeof p.finalHash === 'string' && typeof p.endedAt === 'string' && Array.isArray(p.seats) && p.seats.every(isSeat),
};

/** The rating of a player the pool has not rated yet. */
export const initialRating = (parameters: PoolParameters): PlayerRating => ({ rating: parameters.rating, rd: parameters.rd, volatility: parameters.volatility, games: 0, lastAt: null });

export const ratingOf = (pool: PoolState, player: string): PlayerRating => pool.players.get(player) ?? initialRating(pool.parameters);

export const isProvisional = (pool: Pick<PoolState, 'parameters'>, rating: Pick<PlayerRating, 'rd'>): boolean => rating.rd > pool.parameters.provisionalRd;

const sameRating = (a: PlayerRating, b: PlayerRating): boolean => a.rating === b.rating && a.rd === b.rd && a.volatility === b.volatility && a.games === b.games && a.lastAt === b.lastAt;

export const ratingPool: Aggregate<PoolState, PoolEvent, null> = {
  decode: (stored: StoredEvent) => decodeTyped<PoolEvent>('rating pool', CHECKS, stored),
  found(poolId, first) {
    if (first.type !== 'PoolOpened') return fail(MALFORMED, 'a rating pool opens with PoolOpened');
    const { kind, family, system, parameters } = first.payload;
    if (poolId !== poolIdOf(kind, family)) return fail(MALFORMED, `the pool ${poolId} is not ${kind}'s ${family} pool`);
    return ok({ poolId, kind, family, system, parameters, players: new Map(), games: new Set() });
  },
  evolve(pool, event) {
    if (event.type === 'PoolOpened') return fail(MALFORMED, 'a pool opens once');
    const { gameId, seats } = event.payload;
    if (pool.games.has(gameId)) return fail(MALFORMED, `game ${gameId} is rated twice`);
    for (const s of seats) {
      if (!sameRating(s.before, ratingOf(pool, s.player))) return fail(MALFORMED, `${s.player}'s rating before game ${gameId} is not the one the pool holds`);
    }
    // Shared, not copied (a pool grows long), as a stream head's command ids are: a failed append drops the held pool.
    for (const s of seats) pool.players.set(s.player, s.after);
    pool.games.add(gameId);
    return ok({ ...pool });
  },
  follows: () => true,
};

/** The days between two instants, in rating periods (lichess: a fraction of a period a day). */
function periodsBetween(from: string | null, to: string, perDay: number): number {
  if (from === null) return 0;
  const ms = Date.parse(to) - Date.parse(from);
  return ms > 0 ? (ms / 86_400_000) * perDay : 0;
}

/** Glicko-2 for one game of two seats (a rating period of one game, as lichess rates). */
function rateTwo(pool: PoolState, game: RatedGame, before: PlayerRating[]): PlayerRating[] {
  const p = pool.parameters;
  const now = before.map((r) => ({ rating: r.rating, rd: inflatedRd(r.rd, r.volatility ?? 0, periodsBetween(r.lastAt, game.endedAt, p.periodsPerDay), p.maxRd), volatility: r.volatility ?? 0 }));
  return before.map((r, i) => {
    const j = 1 - i;
    const mine = game.seats[i].place;
    const theirs = game.seats[j].place;
    const score = mine < theirs ? 1 : mine === theirs ? 0.5 : 0;
    const next = glicko2(now[i], [{ opponent: now[j], score }], p.tau ?? 0.75);
    return { rating: round6(next.rating), rd: round6(next.rd), volatility: round6(next.volatility), games: r.games + 1, lastAt: game.endedAt };
  });
}

/** Weng-Lin over the table's places. */
function rateMany(pool: PoolState, game: RatedGame, before: PlayerRating[]): PlayerRating[] {
  const p = pool.parameters;
  const after = plackettLuce(
    before.map((r) => [{ mu: r.rating, sigma: r.rd }]),
    game.seats.map((s) => s.place),
    { beta: p.beta ?? p.rd / 2, kappa: 0.0001 },
  );
  return before.map((r, i) => ({ rating: round6(after[i][0].mu), rd: round6(after[i][0].sigma), volatility: null, games: r.games + 1, lastAt: game.endedAt }));
}

/** The update one finished rated game makes to its pool (pure: the same on every machine). */
export function rateGame(pool: PoolState, game: RatedGame): Result<GameRatedPayload> {
  if (pool.games.has(game.gameId)) return fail('INVALID_INPUT', `game ${game.gameId} is rated already`);
  if (game.kind !== pool.kind || game.family !== pool.family) return fail('INVALID_INPUT', `game ${game.gameId} is not for pool ${pool.poolId}`);
  const before = game.seats.map((s) => ratingOf(pool, s.player));
  if (pool.system === 'glicko2' && game.seats.length !== 2) return fail('INVALID_INPUT', 'Glicko-2 rates games of two seats');
  const after = pool.system === 'glicko2' ? rateTwo(pool, game, before) : rateMany(pool, game, before);
  return ok({
    gameId: game.gameId,
    finalHash: game.finalHash,
    endedAt: game.endedAt,
    seats: game.seats.map((s, i) => ({ player: s.player, seat: i, place: s.place, before: before[i], after: after[i] })),
  });
}

/** A new pool's first event. */
export const poolOpened = (kind: string, family: RatingFamily): PoolOpenedPayload => {
  const system = ratingSystemOf(kind);
  return { kind, family, system, parameters: parametersOf(system) };
};

export const poolDraft = (event: PoolEvent, createdAt: string, moveId: string | null = null): DraftEvent => ({
  type: event.type,
  actor: null,
  moveId,
  bodyHash: null,
  payload: event.payload as unknown as Record<string, unknown>,
  createdAt,
});

/** The family of a time control (none: untimed). */
export const familyOfControl = (control: Pick<TimeControl, 'kind'> | null | undefined): RatingFamily => (!control ? 'untimed' : control.kind === 'fischer' ? 'live' : 'correspondence');

/** The family of a game's time control. */
export const familyOf = (game: Pick<GameState, 'clock'>): RatingFamily => familyOfControl(game.clock?.control);

/**
 * The places of a finished game's seats: its winners first, then by game points in the game's
 * order (Chicken Foot: the fewest first, docs/rules/chicken-foot.md); seats equal on both share a
 * place. A game won by nobody (a draw) puts every seat first.
 */
export function placesOf(game: Pick<GameState, 'outcome' | 'seatCount' | 'engine'>): number[] {
  const outcome = game.outcome;
  const seats = Array.from({ length: game.seatCount }, (_, i) => i);
  if (!outcome) return seats.map(() => 1);
  const lower = game.engine.pointsOrder === 'lower';
  const won = (s: number) => (outcome.winners.includes(s) ? 1 : 0);
  const points = (s: number) => outcome.points[s] ?? 0;
  const better = (a: number, b: number) => won(a) > won(b) || (won(a) === won(b) && (lower ? points(a) < points(b) : points(a) > points(b)));
  // Two seats: the winner is first and nothing else counts (backgammon's points are the match's, not a rank).
  if (game.seatCount === 2) return seats.map((s) => 1 + seats.filter((o) => won(o) > won(s)).length);
  return seats.map((s) => 1 + seats.filter((o) => better(o, s)).length);
}

/** What a finished rated game gives its pool, from the game folded from its stream; null: it is not rated or not finished with a result. */
export function ratedGameOf(game: GameState & { rated?: boolean }, last: Pick<StoredEvent, 'hash' | 'createdAt'>): RatedGame | null {
  if (!game.rated || !game.ended || !game.outcome || game.ending?.reason === 'aborted') return null;
  const places = placesOf(game);
  const players = game.seatPlayers;
  if (players.some((p) => p === null)) return null;
  return {
    gameId: game.gameId,
    kind: game.kind,
    family: familyOf(game),
    finalHash: last.hash,
    endedAt: last.createdAt,
    seats: players.map((player, i) => ({ player: player as string, place: places[i] })),
  };
}
