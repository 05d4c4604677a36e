import { ApiError, followMyStream, gql, keepPlayerKey, playerKey } from '../api.js';
import { untilText } from '../clock.js';
import { html, type Markup } from '../html.js';
import { layout, type Stop } from '../layout.js';
import { myRatingsView, RATING_FIELDS, type ShownRating } from './ratings.js';

const ME = `query { me { player { id name } } }`;
const GAME_FIELDS = 'edges { seat deadline updatedAt node { id kind status result seats { name } } }';
/**
 * The three lists in one request: waiting for me (most pressing deadline first), my other running
 * games, the latest finished ones; as many as fit the service's cost limit for one query.
 */
const MY_GAMES = `query { me { player { id name ${RATING_FIELDS} }
  waiting: games(toAct: true, first: 40) { ${GAME_FIELDS} }
  running: games(toAct: false, status: ACTIVE, first: 30) { ${GAME_FIELDS} }
  finished: games(status: FINISHED, first: 10) { ${GAME_FIELDS} } } }`;

interface Row {
  seat: number;
  deadline: string | null;
  updatedAt: string;
  node: { id: string; kind: string; status: string; result: { summary?: string } | null; seats: { name: string | null }[] };
}
interface Mine {
  player: { id: string; name: string; ratings?: ShownRating[] } | null;
  waiting: { edges: Row[] };
  running: { edges: Row[] };
  finished: { edges: Row[] };
}

const TITLE = 'My games · Arbiter';
/** Coalesces a burst of notices (a reconnect replays many) into one reload. */
const RELOAD_DELAY_MS = 150;

/**
 * The signed-in player's page: a sign-in form without a key; with one, the player's games (those
 * waiting for them first, by deadline), kept current by the player's stream, the count of games
 * waiting in the tab's title, and sign-out.
 */
export function mePage(app: HTMLElement): Stop {
  let stopStream: Stop = () => {};
  let reload = 0;
  let mine: Mine | null = null;
  let live = false;
  let stopped = false;

  const render = (error = '') => {
    if (stopped) return;
    const key = playerKey();
    document.title = mine?.waiting.edges.length ? `(${mine.waiting.edges.length}) ${TITLE}` : TITLE;
    const signedIn = html`<p class="error" role="alert">${error || 'Loading…'}</p><p><button type="button" data-signout>Sign out</button></p>`;
    app.innerHTML = layout(key && mine ? games(mine, live) : key ? signedIn : signIn(error)).text;
    tick();
  };

  const load = async () => {
    const key = playerKey();
    if (!key) return render();
    try {
      mine = (await gql<{ me: Mine }>(MY_GAMES, {}, key)).me;
      render();
    } catch (err) {
      render((err as Error).message);
    }
  };

  const follow = (key: string) => {
    stopStream = followMyStream(
      key,
      () => {
        clearTimeout(reload);
        reload = window.setTimeout(load, RELOAD_DELAY_MS);
      },
      (open) => {
        live = open;
        const state = app.querySelector('[data-live]');
        if (state) state.textContent = open ? 'live' : 'reconnecting…';
      },
    );
  };

  // The time left in the list counts down between notices.
  const tick = () => {
    for (const el of app.querySelectorAll<HTMLElement>('[data-deadline]')) el.textContent = untilText(Date.parse(el.dataset.deadline ?? '') - Date.now());
  };
  const ticker = window.setInterval(tick, 1000);

  const onSubmit = async (e: Event) => {
    const form = e.target as HTMLFormElement;
    if (!form.matches('[data-signin]')) return;
    // Never submitted by the browser: the key must not travel in a URL or a form post.
    e.preventDefault();
    const key = String(new FormData(form).get('key') ?? '').trim();
    try {
      const me = (await gql<{ me: { player: { id: string } | null } }>(ME, {}, key)).me;
      if (!me.player) return render('This is an app’s key: sign in with a player’s key.');
      keepPlayerKey(key);
      follow(key);
      await load();
    } catch (err) {
      render(err instanceof ApiError && err.code === 'UNAUTHORIZED' ? 'This key is not known (revoked, or mistyped).' : (err as Error).message);
    }
  };
  const onClick = (e: Event) => {
    if (!(e.target as Element).closest('[data-signout]')) return;
    stopStream();
    keepPlayerKey(null);
    mine = null;
    render();
  };
  app.addEventListener('submit', onSubmit);
  app.addEventListener('click', onClick);

  const key = playerKey();
  if (key) {
    follow(key);
    void load();
  } else render();

  return () => {
    stopped = true;
    stopStream();
    clearTimeout(reload);
    clearInterval(ticker);
    document.title = 'Arbiter';
    app.removeEventListener('submit', onSubmit);
    app.removeEventListener('click', onClick);
  };
}

function signIn(error: string): Markup {
  return html`<h1>Sign in</h1>
    <form class="signin" data-signin method="post" action="/me">
      <p><label for="player-key">Player key</label><br /><input id="player-key" name="key" type="password" autocomplete="current-password" required size="40" spellcheck="false" /></p>
      <p><button type="submit">Sign in</button></p>
      <p class="muted small">The key stays in this browser, for this site only, and is sent to the service only as the Authorization header of its requests.</p>
      <p class="error" role="alert">${error}</p>
    </form>`;
}

function games(mine: Mine, live: boolean): Markup {
  const list = (name: string, title: string, rows: Row[], empty: string) =>
    html`<section class="my-games" aria-labelledby="mine-${name}"><h2 id="mine-${name}">${title} <span class="muted">(${rows.length})</span></h2>
      ${rows.length ? html`<ul class="games" data-list="${name}">${rows.map((r) => item(r, name === 'waiting'))}</ul>` : html`<p class="muted">${empty}</p>`}</section>`;
  return html`<h1>My games</h1>
    <p class="meta">Signed in as <b>${mine.player?.name ?? ''}</b> · <span data-live aria-live="polite">${live ? 'live' : 'connecting…'}</span> ·
      <button type="button" data-signout>Sign out</button></p>
    ${list('waiting', 'Waiting for you', mine.waiting.edges, 'No game waits for you.')}
    ${list('running', 'Waiting for the others', mine.running.edges, 'No other game runs.')}
    ${list('finished', 'Finished', mine.finished.edges, 'No game finished yet.')}
    ${myRatingsView(mine.player?.ratings)}`;
}

function item(r: Row, mine: boolean): Markup {
  const g = r.node;
  const names = g.seats.map((s, i) => (i === r.seat ? html`<b>${s.name ?? 'you'}</b>` : html`${s.name ?? `seat ${i}`}`));
  const when = g.status === 'FINISHED' ? html`<span class="muted">${g.result?.summary ?? 'finished'}</span>` : '';
  return html`<li data-game="${g.id}"><a href="/games/${g.id}"><span class="kind">${g.kind}</span>
    <span class="players">${names.map((n, i) => html`${i ? ' · ' : ''}${n}`)}</span>
    ${r.deadline ? html`<span class="${mine ? 'time-left' : 'muted'}">${mine ? 'you move ' : 'they move '}<time datetime="${r.deadline}" data-deadline="${r.deadline}"></time></span>` : ''}${when}</a></li>`;
}
