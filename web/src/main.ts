import './page.css';
import { html } from './html.js';
import { layout, type Stop } from './layout.js';
import { gamePage } from './pages/game.js';
import { gamesPage } from './pages/games.js';
import { mePage } from './pages/me.js';
import { playPage } from './pages/play.js';
import { tournamentPage, tournamentsPage } from './pages/tournament.js';

/**
 * The page's router: the path names the view (the service answers index.html for each), the
 * fragment may carry a seat's token. A view renders into #app and gives back how to stop its
 * live updates when the reader goes elsewhere.
 */
const app = document.getElementById('app')!;
let stop: Stop | null = null;

function route(): void {
  stop?.();
  const path = location.pathname.replace(/\/+$/, '') || '/';
  const game = /^\/games\/([A-Za-z0-9_-]{1,64})$/.exec(path);
  const tournament = /^\/tournaments\/(t-[A-Za-z0-9_-]{1,64})$/.exec(path);
  if (game) stop = gamePage(app, game[1]);
  else if (tournament) stop = tournamentPage(app, tournament[1]);
  else if (path === '/tournaments') stop = tournamentsPage(app);
  else if (path === '/me') stop = mePage(app);
  else if (path === '/play') stop = playPage(app);
  else if (path === '/' || path === '/games') stop = gamesPage(app);
  else {
    app.innerHTML = layout(html`<p>Nothing here. <a href="/">See the games.</a></p>`).text;
    stop = null;
  }
}

// Links inside the page navigate without reloading it.
document.addEventListener('click', (e) => {
  const a = (e.target as Element).closest('a');
  if (!a || a.target || a.hasAttribute('download') || a.origin !== location.origin || e.metaKey || e.ctrlKey || e.shiftKey) return;
  if (!/^\/(games|tournaments|me|play)?(\/|$)/.test(a.pathname) || a.pathname.startsWith('/graphiql')) return;
  e.preventDefault();
  history.pushState(null, '', a.pathname + a.search + a.hash);
  route();
});
addEventListener('popstate', route);
route();
