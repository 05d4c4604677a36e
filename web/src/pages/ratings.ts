import { gql } from '../api.js';
import { html, type Markup } from '../html.js';

/**
 * Ratings on the page (docs/ratings.md): a rated game's seats with their ratings and, once it is
 * rated, each one's change; the signed-in player's ratings per kind on /me. Read from the public
 * API as any client would: `Game.rated`/`ratingChanges`, `player(id) { ratings }`, `me { player { ratings } }`.
 */

type Family = 'LIVE' | 'CORRESPONDENCE' | 'UNTIMED';

/** A rating as `PlayerRating` answers it. */
export interface ShownRating {
  kind: string;
  family: Family;
  rating: number;
  rd: number;
  provisional: boolean;
  games: number;
}

interface Change {
  seat: number;
  change: number;
  before: { rating: number };
  after: { rating: number; rd: number };
}

/** What a game's page reads for its ratings (its seats' players come with `seats { player }`). */
export const GAME_RATING_FIELDS = 'rated ratingChanges { seat change before { rating } after { rating rd } }';
/** The fields of a player's ratings the page shows. */
export const RATING_FIELDS = 'ratings { kind family rating rd provisional games }';

/** A game as its page holds it, as far as ratings go. */
export interface RatedGame {
  kind: string;
  rated: boolean;
  seats: { index: number; player?: string | null }[];
  clock: { kind: 'CORRESPONDENCE' | 'FISCHER' } | null;
  ratingChanges: Change[];
  /** Each seat's player's rating in the game's pool before it is rated (null: none yet there). */
  seatRatings?: (ShownRating | null)[];
}

const familyOf = (game: Pick<RatedGame, 'clock'>): Family => (!game.clock ? 'UNTIMED' : game.clock.kind === 'FISCHER' ? 'LIVE' : 'CORRESPONDENCE');
const whole = (r: number) => Math.round(r);
/** lichess's mark of a provisional rating: "1500?". */
const shown = (rating: number, provisional: boolean) => `${whole(rating)}${provisional ? '?' : ''}`;
const PROVISIONAL_RD = 110;

/** The seats' players' current ratings in the game's pool, read while it is not yet rated (one request). */
export async function loadSeatRatings(game: RatedGame): Promise<void> {
  if (!game.rated || game.ratingChanges.length > 0) return;
  const players = game.seats.map((s) => s.player ?? null);
  const asked = players.flatMap((p, i) => (p ? [i] : []));
  if (asked.length === 0) return;
  const query = `query(${asked.map((i) => `$p${i}: ID!`).join(', ')}) { ${asked.map((i) => `s${i}: player(id: $p${i}) { ${RATING_FIELDS} }`).join(' ')} }`;
  const answer = await gql<Record<string, { ratings: ShownRating[] } | null>>(query, Object.fromEntries(asked.map((i) => [`p${i}`, players[i]])));
  const family = familyOf(game);
  game.seatRatings = players.map((_, i) => answer[`s${i}`]?.ratings.find((r) => r.kind === game.kind && r.family === family) ?? null);
}

/** A rated game's seats and their ratings; its change to each once rated. Nothing for an unrated game. */
export function gameRatingsView(game: RatedGame, seatName: (i: number) => string): Markup {
  if (!game.rated) return html``;
  const row = (i: number) => {
    const change = game.ratingChanges.find((c) => c.seat === i);
    if (change) {
      const delta = Math.round(change.change);
      const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
      return html`<li data-seat-rating="${i}"><span class="who">${seatName(i)}</span> ${whole(change.before.rating)} → <b>${shown(change.after.rating, change.after.rd > PROVISIONAL_RD)}</b>
        <span class="rating-change ${delta > 0 ? 'up' : delta < 0 ? 'down' : ''}" data-change="${delta}">${sign}${Math.abs(delta)}</span></li>`;
    }
    const current = game.seatRatings?.[i];
    return html`<li data-seat-rating="${i}"><span class="who">${seatName(i)}</span> ${current ? shown(current.rating, current.provisional) : html`<span class="muted">no rating yet</span>`}</li>`;
  };
  return html`<section class="ratings" aria-label="Ratings"><h2>Rated game</h2><ul>${game.seats.map((s) => row(s.index))}</ul>
    <p class="small muted">${game.ratingChanges.length ? 'The rating changes this game made.' : 'Ratings before this game; the changes show once it is rated.'}</p></section>`;
}

/** The signed-in player's ratings, one per kind and clock family, the most played first. */
export function myRatingsView(ratings: ShownRating[] | undefined): Markup {
  const list = [...(ratings ?? [])].sort((a, b) => b.games - a.games || a.kind.localeCompare(b.kind));
  return html`<section class="my-ratings" aria-labelledby="mine-ratings"><h2 id="mine-ratings">My ratings</h2>
    ${
      list.length
        ? html`<table class="ratings-table"><thead><tr><th scope="col">Game</th><th scope="col">Clock</th><th scope="col">Rating</th><th scope="col">Games</th></tr></thead>
          <tbody>${list.map(
            (r) =>
              html`<tr data-rating="${r.kind}:${r.family.toLowerCase()}"><td class="kind">${r.kind}</td><td>${r.family.toLowerCase()}</td>
                <td><b>${shown(r.rating, r.provisional)}</b> <span class="muted small">±${whole(2 * r.rd)}</span></td><td>${r.games}</td></tr>`,
          )}</tbody></table>`
        : html`<p class="muted">No rated game yet.</p>`
    }</section>`;
}
