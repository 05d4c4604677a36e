import { gql } from '../api.js';
import { clockText, isLow } from '../clock.js';
import { html, type Markup } from '../html.js';
import { layout, type Stop } from '../layout.js';

const GAMES = `query($filter: GameFilterInput) { gameKinds games(filter: $filter, first: 50) {
  totalCount nodes { id kind status createdAt toAct result seats { name taken }
    clock { kind paused running remainingMs control { baseSeconds perMoveSeconds } } } } }`;

interface GameRow {
  id: string;
  kind: string;
  status: string;
  createdAt: string;
  toAct: number[];
  result: { summary?: string } | null;
  seats: { name: string | null; taken: boolean }[];
  clock: { kind: string; paused: boolean; running: number[]; remainingMs: number[]; control: { baseSeconds: number | null; perMoveSeconds: number | null } } | null;
}

/** Refreshes the list this often while it is open (live games update). */
const REFRESH_MS = 4000;

/**
 * The games list: filters by kind, status and tournament; each game with its players, whose
 * turn it is and the time they have left (counting down), its result once over, and the day
 * it was created. Refreshed while open.
 */
export function gamesPage(app: HTMLElement): Stop {
  const params = new URLSearchParams(location.search);
  const filter = { kind: params.get('kind') || undefined, status: params.get('status') || undefined, tournamentId: params.get('tournament') || undefined };
  let timer = 0;
  let readAt = Date.now();
  const load = async () => {
    try {
      const data = await gql<{ gameKinds: string[]; games: { totalCount: number; nodes: GameRow[] } }>(GAMES, { filter });
      readAt = Date.now();
      app.innerHTML = layout(view(data.gameKinds, data.games.nodes, data.games.totalCount, filter)).text;
    } catch (err) {
      app.innerHTML = layout(html`<p class="error" role="alert">${(err as Error).message}</p>`).text;
    }
    timer = window.setTimeout(load, REFRESH_MS);
  };
  // The running seats' time counts down between refreshes (the service alone decides a timeout).
  const ticker = window.setInterval(() => {
    for (const el of app.querySelectorAll<HTMLElement>('[data-left]')) {
      const ms = Math.max(0, Number(el.dataset.left) - (Date.now() - readAt));
      el.textContent = clockText(ms);
      el.closest('.left')?.classList.toggle('low', isLow(ms, Number(el.dataset.full)));
    }
  }, 1000);
  void load();
  return () => {
    clearTimeout(timer);
    clearInterval(ticker);
  };
}

function view(kinds: string[], games: GameRow[], total: number, f: { kind?: string; status?: string; tournamentId?: string }) {
  const option = (value: string, label: string, selected?: string) => html`<option value="${value}" ${value === (selected ?? '') ? html`selected` : ''}>${label}</option>`;
  return html`<h1>Games</h1>
    <form class="filters" method="get" action="/games">
      <label>Kind <select name="kind">${option('', 'any')}${kinds.map((k) => option(k, k, f.kind))}</select></label>
      <label>Status <select name="status">${['', 'WAITING', 'ACTIVE', 'FINISHED', 'ABORTED'].map((s) => option(s, s || 'any', f.status))}</select></label>
      <label>Tournament <input name="tournament" value="${f.tournamentId ?? ''}" size="16" placeholder="t-…" /></label>
      <button type="submit">Show</button>
    </form>
    <p class="muted">${total} game${total === 1 ? '' : 's'}${total > games.length ? html`, the newest ${games.length} shown` : ''}</p>
    <ul class="games">${games.map(row)}</ul>`;
}

const day = (iso: string): string => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' });

function row(g: GameRow): Markup {
  const name = (i: number) => g.seats[i]?.name ?? `seat ${i}`;
  return html`<li data-game="${g.id}"><a href="/games/${g.id}"><span class="kind">${g.kind}</span> <span class="status status-${g.status.toLowerCase()}">${g.status}</span>
    <span class="players">${g.seats.map((s, i) => html`${i ? ' · ' : ''}${g.toAct.includes(i) ? html`<b>${name(i)}</b>` : s.taken ? name(i) : html`<i>open seat</i>`}`)}</span>
    ${state(g, name)} <time datetime="${g.createdAt}">${day(g.createdAt)}</time></a></li>`;
}

/** What a reader wants to know of a game at a glance: its result, or whose turn and their time. */
function state(g: GameRow, name: (i: number) => string): Markup {
  if (g.status === 'FINISHED') return html`<span class="result" data-result>${g.result?.summary ?? 'finished'}</span>`;
  if (g.status === 'ABORTED') return html`<span class="result">aborted, no result</span>`;
  if (g.status === 'WAITING') return html`<span class="muted">waiting for players</span>`;
  if (!g.toAct.length) return html``;
  const c = g.clock;
  const full = ((c?.kind === 'FISCHER' ? c.control.baseSeconds : c?.control.perMoveSeconds) ?? 0) * 1000;
  // Paused clocks run for nobody: the seats to move show the time they keep.
  const timed = g.toAct.filter((i) => c && (c.paused || c.running.includes(i)));
  return html`<span class="turn" data-turn>${g.toAct.map(name).join(', ')} to move</span>${timed.map(
    (i) =>
      html` <span class="left${isLow(c!.remainingMs[i], full) ? ' low' : ''}"><span ${c!.paused ? '' : html`data-left="${c!.remainingMs[i]}" data-full="${full}"`}>${clockText(c!.remainingMs[i])}</span>${c!.paused ? ' (paused)' : ''}</span>`,
  )}`;
}
