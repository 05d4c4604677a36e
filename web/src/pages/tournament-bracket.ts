import { bracketSize, doubleEliminationLayout, groupCountFor, knockoutRoundCount } from '../../../src/referee/core/tournament/bracket-layout.js';
import { html, type Markup, svg } from '../html.js';
import type { Board, Round, Tournament } from './tournament-model.js';

/**
 * The bracket formats drawn as brackets (issue 28, item 6): each match a box with both sides and
 * their score, a bye as such, lines from each match to the one its winner plays next, and the
 * rounds not paired yet as empty boxes, so the whole road to the final is in view. Which board of
 * which tournament round is which match follows the rules the referee pairs by (K6.2-K6.4, K6.10,
 * K6.12 in docs/rules/tournaments.md), taken from the referee core itself, not restated here.
 */

/** How a column's matches feed the next column's: two into one (K6.4), or one into one (K6.10's LB(2j-1) to LB(2j), the grand finals). */
type Feed = 'merge' | 'straight' | 'none';

interface Column {
  title: string;
  /** Each match in bracket order; null while its round is not paired. */
  matches: (Board | null)[];
  feed: Feed;
  /** K6.11's third-place match, drawn apart under the final. */
  thirdPlace?: Board | null;
}

interface Part {
  title: string;
  columns: Column[];
}

/** The brackets of a tournament, or none (a group stage not over counts its knockout anyway). */
export function bracketParts(t: Tournament): Part[] {
  if (t.format === 'KNOCKOUT') return t.rounds.length ? [{ title: 'Bracket', columns: knockoutColumns(t.rounds, 2 * t.rounds[0].boards.length, t.config.thirdPlaceMatch === true) }] : [];
  if (t.format === 'DOUBLE_ELIMINATION') return t.rounds.length ? doubleElimination(t.rounds, 2 * t.rounds[0].boards.length) : [];
  if (t.format === 'GROUPS_KNOCKOUT' && t.totalRounds !== null) {
    // K6.12: the knockout is of the groups' first `advancePerGroup`, and its rounds are the last ones.
    const starters = t.participants.filter((p) => p.entryRound === 1 && (p.withdrawnAfterRound ?? 1) >= 1).length;
    const seeds = groupCountFor({ advancePerGroup: t.config.advancePerGroup ?? 2, ...t.config }, starters) * (t.config.advancePerGroup ?? 2);
    const stage = t.totalRounds - knockoutRoundCount(seeds);
    return [{ title: 'Knockout', columns: knockoutColumns(t.rounds.slice(stage), bracketSize(seeds), t.config.thirdPlaceMatch === true) }];
  }
  return [];
}

/** K6.2-K6.4: log2(S) rounds of S/2, S/4, ... matches; K6.11's third-place match is board 2 of the last. */
function knockoutColumns(rounds: readonly Round[], size: number, thirdPlace: boolean): Column[] {
  const k = Math.log2(size);
  return Array.from({ length: k }, (_, i) => {
    const boards = rounds[i]?.boards;
    const matches = Array.from({ length: size / 2 ** (i + 1) }, (_, m) => boards?.[m] ?? null);
    const last = i === k - 1;
    const title = last ? 'Final' : i === k - 2 ? 'Semi-finals' : i === k - 3 ? 'Quarter-finals' : `Round ${i + 1}`;
    return { title, matches, feed: last ? 'none' : 'merge', ...(last && thirdPlace && k >= 2 ? { thirdPlace: boards?.[1] ?? null } : {}) };
  });
}

/** K6.10: the winners' bracket with the grand finals after it, and the losers' bracket, each tournament round split by the referee's own layout. */
function doubleElimination(rounds: readonly Round[], size: number): Part[] {
  const k = Math.log2(size);
  const wb: (Board | null)[][] = Array.from({ length: k }, (_, i) => Array(size / 2 ** (i + 1)).fill(null));
  const lb: (Board | null)[][] = [];
  const gf: (Board | null)[][] = [[null]];
  for (let r = 1; r <= 2 * k + 1; r++) {
    let next = 0;
    for (const part of doubleEliminationLayout(size, r)) {
      const boards = Array.from({ length: part.matches }, (_, m) => rounds[r - 1]?.boards[next + m] ?? null);
      next += part.matches;
      if (part.bracket === 'WB') wb[part.bracketRound - 1] = boards;
      else if (part.bracket === 'LB') lb[part.bracketRound - 1] = boards;
      else if (part.bracketRound === 1 || boards[0]) gf[part.bracketRound - 1] = boards;
    }
  }
  const winners: Column[] = wb.map((matches, i) => ({ title: i === k - 1 ? "Winners' final" : `Winners' round ${i + 1}`, matches, feed: i === k - 1 ? 'straight' : 'merge' }));
  const finals: Column[] = gf.map((matches, i) => ({ title: i === 0 ? 'Grand final' : 'Grand final, reset', matches, feed: i < gf.length - 1 ? 'straight' : 'none' }));
  const losers: Column[] = lb.map((matches, j) => ({
    title: j === lb.length - 1 ? "Losers' final" : `Losers' round ${j + 1}`,
    matches,
    feed: j === lb.length - 1 ? 'none' : j % 2 === 0 ? 'straight' : 'merge',
  }));
  return [{ title: "Winners' bracket and grand final", columns: [...winners, ...finals] }, ...(losers.length ? [{ title: "Losers' bracket", columns: losers }] : [])];
}

const W = 176;
const H = 44;
const GAP = 14;
const COL = W + 40;
const TOP = 24;

/** A side's score on a board: its game points in a one-game match, else the games it won; a forfeit in words. */
function score(board: Board, id: string | undefined): string {
  if (board.walkover) return board.walkover.id === id ? 'w/o' : '';
  const played = board.games.filter((g) => g.result);
  const seatIn = (g: Board['games'][number]) => g.seats.findIndex((s) => s.id === id);
  if (played.length === 0) return '';
  if (board.games.length === 1) {
    const result = played[0].result!;
    const kind = result.kinds[seatIn(played[0])];
    if (kind !== 'PLAYED') return kind === 'FORFEIT_WIN' ? 'win (forfeit)' : 'forfeit';
    return result.gamePoints[seatIn(played[0])] ?? '';
  }
  return String(played.filter((g) => g.result!.kinds[seatIn(g)] === 'FORFEIT_WIN' || (g.result!.ranking[0]?.length === 1 && g.result!.ranking[0][0] === seatIn(g))).length);
}

function side(board: Board | null, i: number, x: number, y: number): Markup {
  const s = board?.seats[i];
  const name = !board ? '' : s ? s.name : board.seats.length === 1 ? 'bye' : '—';
  const shown = name.length > 18 ? `${name.slice(0, 17)}…` : name;
  const cls = !s ? 'empty' : board?.winner?.id === s.id ? 'winner' : board?.complete ? 'out' : '';
  return svg`<text x="${x + 6}" y="${y + 16 + i * 20}" class="${cls}">${shown}</text>${s && board ? svg`<text x="${x + W - 6}" y="${y + 16 + i * 20}" text-anchor="end" class="score ${cls}">${score(board, s.id)}</text>` : ''}`;
}

function box(board: Board | null, x: number, y: number, mine: ReadonlySet<string>): Markup {
  const isMine = board?.seats.some((s) => s.id && mine.has(s.id)) ?? false;
  return svg`<g class="match${isMine ? ' mine' : ''}${board ? '' : ' unpaired'}"><rect x="${x}" y="${y}" width="${W}" height="${H}" rx="4"/><line x1="${x}" x2="${x + W}" y1="${y + H / 2}" y2="${y + H / 2}"/>${side(board, 0, x, y)}${side(board, 1, x, y)}</g>`;
}

/** One bracket as SVG: columns left to right, each match placed level with the matches that feed it. */
function drawPart(part: Part, mine: ReadonlySet<string>, titled: boolean): Markup {
  const ys: number[][] = [];
  part.columns.forEach((col, c) => {
    const prev = part.columns[c - 1];
    ys.push(
      col.matches.map((_, m) => {
        const feeders = prev ? ys[c - 1].filter((_, i) => (prev.feed === 'merge' ? Math.floor(i / 2) : prev.feed === 'straight' ? i : -1) === m) : [];
        return feeders.length ? feeders.reduce((a, b) => a + b, 0) / feeders.length : TOP + m * (H + GAP);
      }),
    );
  });
  const bottom = Math.max(...ys.flat()) + H;
  const parts: Markup[] = [];
  part.columns.forEach((col, c) => {
    const x = c * COL;
    parts.push(svg`<text x="${x}" y="14" class="round-title">${col.title}</text>`);
    col.matches.forEach((board, m) => {
      const y = ys[c][m];
      parts.push(box(board, x, y, mine));
      const to = col.feed === 'merge' ? Math.floor(m / 2) : col.feed === 'straight' ? m : null;
      if (to !== null && ys[c + 1]) parts.push(svg`<path d="M${x + W} ${y + H / 2}H${x + COL - 20}V${ys[c + 1][to] + H / 2}H${x + COL}"/>`);
    });
    if (col.thirdPlace !== undefined) parts.push(svg`<text x="${x}" y="${bottom + GAP + 12}" class="round-title">Third place</text>`, box(col.thirdPlace, x, bottom + GAP + 18, mine));
  });
  const height = bottom + (part.columns.some((col) => col.thirdPlace !== undefined) ? GAP + 18 + H : 0) + 2;
  const width = part.columns.length * COL - 38;
  return html`${titled ? html`<h3>${part.title}</h3>` : ''}<div class="scroll" tabindex="0" role="region" aria-label="${part.title}, scrolls sideways">
    <svg class="bracket" viewBox="-1 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${part.title}: ${part.columns.length} rounds; the rounds below list every match and result">${parts}</svg></div>`;
}

/** The tournament's brackets, drawn; nothing for a format without one. */
export function brackets(t: Tournament, mine: ReadonlySet<string>): Markup {
  const parts = bracketParts(t);
  return parts.length ? html`<section aria-label="Bracket"><h2>Bracket</h2>${parts.map((p) => drawPart(p, mine, parts.length > 1))}</section>` : html``;
}
