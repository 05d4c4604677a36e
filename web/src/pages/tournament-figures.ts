import { html, type Markup } from '../html.js';

/**
 * How a tournament's figures read to a player (issue 28, item 6): exact rationals as decimals, and
 * each tie-break by its name with what it means (docs/rules/tournaments.md, TB8.8).
 */

/** An exact value the API gives as `n` or `n/d`, as a decimal of at most two places (`52/3` is `17.33`). */
export function decimal(value: string | null): string {
  if (value === null) return '–';
  const [n, d] = value.split('/').map(Number);
  if (d === undefined) return value;
  if (!Number.isFinite(n) || !Number.isFinite(d) || d === 0) return value;
  return String(Math.round((n / d) * 100) / 100);
}

/** TB8.8's tie-breaks: their full names and what each counts. */
export const TIE_BREAKS: Record<string, { name: string; means: string }> = {
  BH: { name: 'Buchholz', means: "the sum of the opponents' scores (a round not played counts your own score)" },
  'BH-C1': { name: 'Buchholz cut 1', means: 'Buchholz without its smallest contribution (an unplayed round first)' },
  SB: { name: 'Sonneborn-Berger', means: 'the scores of the opponents you beat, plus half those you drew with' },
  DE: { name: 'Direct encounter', means: 'the points scored against the others tied on every earlier key, when all of them have met' },
  WON: { name: 'Games won', means: 'the games won over the board (byes and forfeits do not count); at tables, the tables won' },
  GP: { name: 'Game points', means: 'the average game points per game played (in Chicken Foot the fewest pips come first)' },
  LOTS: { name: 'Lots', means: 'a draw of lots from the seed revealed when the tournament ends' },
  TP: { name: 'Tournament points', means: 'the points the tournament awards for each round: a win, a draw, a bye, a place at a table' },
};

/** A tie-break's short name, its full name and meaning in its title (a pointer's hover, a screen reader's description). */
export function tieBreakName(short: string): Markup {
  const known = TIE_BREAKS[short];
  return known ? html`<abbr title="${known.name}: ${known.means}">${short}</abbr>` : html`${short}`;
}

/** The names a table uses, spelled out below it: what a phone, which cannot hover, shows too. */
export function legend(shorts: readonly string[]): Markup {
  const known = shorts.filter((s) => TIE_BREAKS[s]);
  return known.length ? html`<dl class="legend small">${known.map((s) => html`<div><dt>${s}</dt><dd>${TIE_BREAKS[s].name}: ${TIE_BREAKS[s].means}</dd></div>`)}</dl>` : html``;
}

/** 1st, 2nd, 3rd, 4th... and `=2nd` for a place shared. */
export function ordinal(place: number, shared = false): string {
  const tens = place % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][place % 10] ?? 'th');
  return `${shared ? '=' : ''}${place}${suffix}`;
}

/** TA7.6: each seat's place at its table from the game's ranking (tied seats share the best of their places); null for a seat not ranked (a forfeit). */
export function tablePlaces(ranking: readonly (readonly number[])[]): Map<number, string> {
  const places = new Map<number, string>();
  let place = 1;
  for (const group of ranking) {
    for (const seat of group) places.set(seat, ordinal(place, group.length > 1));
    place += group.length;
  }
  return places;
}
