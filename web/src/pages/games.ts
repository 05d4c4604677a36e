import { gql } from '../api.js';
import { html } from '../html.js';
import { layout, type Stop } from '../layout.js';

const GAMES = `query($filter: GameFilterInput) { gameKinds games(filter: $filter, first: 50) {
  totalCount nodes { id kind status version createdAt seats { name } } } }`;

interface GameRow {
  id: string;
  kind: string;
  status: string;
  version: number;
  createdAt: string;
  seats: { name: string | null }[];
}

/** Refreshes the list this often while it is open (live games update). */
const REFRESH_MS = 4000;

/** The games list: filters by kind, status and tournament; refreshed while open. */
export function gamesPage(app: HTMLElement): Stop {
  const params = new URLSearchParams(location.search);
  const filter = { kind: params.get('kind') || undefined, status: params.get('status') || undefined, tournamentId: params.get('tournament') || undefined };
  let timer = 0;
  const load = async () => {
    try {
      const data = await gql<{ gameKinds: string[]; games: { totalCount: number; nodes: GameRow[] } }>(GAMES, { filter });
      app.innerHTML = layout(view(data.gameKinds, data.games.nodes, data.games.totalCount, filter)).text;
    } catch (err) {
      app.innerHTML = layout(html`<p class="error" role="alert">${(err as Error).message}</p>`).text;
    }
    timer = window.setTimeout(load, REFRESH_MS);
  };
  void load();
  return () => clearTimeout(timer);
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
    <ul class="games">${games.map(
      (g) => html`<li><a href="/games/${g.id}"><span class="kind">${g.kind}</span> <span class="status status-${g.status.toLowerCase()}">${g.status}</span>
        <span class="players">${g.seats.map((s, i) => s.name ?? `seat ${i}`).join(' · ')}</span> <span class="muted">v${g.version}</span></a></li>`,
    )}</ul>`;
}
