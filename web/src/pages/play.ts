import './lobby.css';
import { ApiError, followMyStream, gql, playerKey } from '../api.js';
import { clockText, untilText } from '../clock.js';
import { html, type Markup } from '../html.js';
import { layout, type Stop } from '../layout.js';
import { type NewGame, newGameForm, readNewGame, showChosen } from './play-form.js';

/**
 * Where a signed-in player starts playing (docs/players.md, "Challenges", "Or join with a player
 * key"): a new game with a seat left open, a challenge to a player or an open challenge; the
 * challenges to answer (accept, decline), the player's own (cancel), the open challenges of
 * others and the games with an open seat (join). Kept current by the player's stream and a
 * light poll (open challenges and seats tell nobody).
 */
const CHALLENGE = 'id kind ruleset seat challengerMessage expiresAt challenger { id name } challenged { id name } timeControl { kind perMoveSeconds baseSeconds incrementSeconds }';
/** Ten of each: the most one query may cost (QUERY_TOO_COMPLEX past it). */
const LOBBY = `query { gameKinds me { player { id name } }
  incoming: incomingChallenges(status: OPEN, first: 10) { nodes { ${CHALLENGE} } }
  outgoing: outgoingChallenges(status: OPEN, first: 10) { nodes { ${CHALLENGE} } }
  open: openChallenges(first: 10) { nodes { ${CHALLENGE} } }
  seats: games(filter: { status: WAITING }, first: 10) { nodes { id kind createdAt seats { index name taken player } } } }`;
const ANSWER = '__typename ... on Rejection { code message }';
const CREATE = `mutation($input: CreateGameInput!) { createGame(input: $input) { ${ANSWER} ... on GameCreated { game { id } } } }`;
const ISSUE = `mutation($input: IssueChallengeInput!) { issueChallenge(input: $input) { ${ANSWER} ... on Challenge { id } } }`;
const ACCEPT = `mutation($id: ID!) { acceptChallenge(id: $id) { ${ANSWER} ... on ChallengeAccepted { game { id } } } }`;
const DECLINE = `mutation($id: ID!) { declineChallenge(id: $id) { ${ANSWER} } }`;
const CANCEL = `mutation($id: ID!) { cancelChallenge(id: $id) { ${ANSWER} } }`;
const JOIN = `mutation($id: ID!, $input: JoinGameInput) { joinGame(gameId: $id, input: $input) { ${ANSWER} ... on SeatJoined { game { id } } } }`;

interface Challenge {
  id: string;
  kind: string;
  ruleset: Record<string, unknown>;
  seat: string;
  challengerMessage: string | null;
  expiresAt: string;
  challenger: { id: string; name: string | null };
  challenged: { id: string; name: string | null } | null;
  timeControl: { kind: string; perMoveSeconds: number | null; baseSeconds: number | null; incrementSeconds: number | null } | null;
}
interface OpenGame {
  id: string;
  kind: string;
  createdAt: string;
  seats: { index: number; name: string | null; taken: boolean; player: string | null }[];
}
interface Lobby {
  gameKinds: string[];
  me: { player: { id: string; name: string | null } | null };
  incoming: { nodes: Challenge[] };
  outgoing: { nodes: Challenge[] };
  open: { nodes: Challenge[] };
  seats: { nodes: OpenGame[] };
}
type Answer = { __typename: string; code?: string; message?: string; game?: { id: string } };

/** Open challenges and seats are polled this often (nobody is told of them). */
const POLL_MS = 5000;
const RELOAD_DELAY_MS = 150;

export function playPage(app: HTMLElement): Stop {
  const key = playerKey();
  document.title = 'Play · Arbiter';
  if (!key) {
    app.innerHTML = layout(html`<h1>Play</h1><p>Sign in with your player key first: <a href="/me">sign in</a>.</p>`).text;
    return () => {};
  }
  let stopped = false;
  let timer = 0;
  let lobby: Lobby | null = null;
  const say = (text: string) => {
    const el = app.querySelector('[data-form-error]');
    if (el) el.textContent = text;
  };

  const load = async () => {
    clearTimeout(timer);
    try {
      lobby = await gql<Lobby>(LOBBY, {}, key);
      if (stopped) return;
      if (!app.querySelector('[data-new-game]')) {
        app.innerHTML = layout(frame(lobby)).text;
        showChosen(app.querySelector('form[data-new-game]') as HTMLFormElement);
      }
      const box = app.querySelector('[data-lobby]');
      if (box) box.innerHTML = lists(lobby).text;
    } catch (err) {
      if (!app.querySelector('[data-new-game]')) app.innerHTML = layout(html`<h1>Play</h1><p class="error" role="alert">${(err as Error).message}</p>`).text;
    }
    if (!stopped) timer = window.setTimeout(load, POLL_MS);
  };

  /** Runs a command; a game it answers is opened, a refusal is told; the lists are read again. */
  const run = async (query: string, variables: Record<string, unknown>) => {
    try {
      const answer = Object.values(await gql<Record<string, Answer>>(query, variables, key))[0];
      if (answer.__typename === 'Rejection') return say(`${answer.code}: ${answer.message}`);
      if (answer.game) return go(`/games/${answer.game.id}`);
      say('');
    } catch (err) {
      say(err instanceof ApiError ? `${err.code}: ${err.message}` : (err as Error).message);
    }
    await load();
  };

  const create = async (form: HTMLFormElement) => {
    const me = lobby?.me.player;
    if (!me) return say('This key is not a player’s: sign in with a player key.');
    const asked = await readNewGame(form, key).catch((err: Error) => err.message);
    if (typeof asked === 'string') return say(asked);
    if (asked.opponent === 'seat') return run(CREATE, { input: gameInput(asked, me) });
    if (asked.opponent === 'challenge' && !asked.to) return say('Give the id of the player to challenge.');
    return run(ISSUE, { input: challengeInput(asked) });
  };

  const onSubmit = (e: Event) => {
    const form = e.target as HTMLFormElement;
    if (!form.matches('[data-new-game]')) return;
    e.preventDefault();
    void create(form);
  };
  const onChange = (e: Event) => {
    const form = (e.target as Element).closest<HTMLFormElement>('form[data-new-game]');
    if (form) showChosen(form);
  };
  const onClick = (e: Event) => {
    const button = (e.target as Element).closest<HTMLElement>('[data-do]');
    if (!button) return;
    const id = button.dataset.id;
    const query = { accept: ACCEPT, decline: DECLINE, cancel: CANCEL, join: JOIN }[button.dataset.do ?? ''];
    // A seat joined carries the player's name, as a challenge's game does.
    const name = lobby?.me.player?.name;
    if (query && id) void run(query, { id, ...(query === JOIN && name ? { input: { name } } : {}) });
  };
  app.addEventListener('submit', onSubmit);
  app.addEventListener('change', onChange);
  app.addEventListener('click', onClick);
  // A burst of notices (a reconnect replays many) reads the lists once.
  let soon = 0;
  const stopStream = followMyStream(
    key,
    () => {
      clearTimeout(soon);
      soon = window.setTimeout(load, RELOAD_DELAY_MS);
    },
    () => {},
  );
  void load();
  return () => {
    stopped = true;
    clearTimeout(timer);
    clearTimeout(soon);
    stopStream();
    document.title = 'Arbiter';
    app.removeEventListener('submit', onSubmit);
    app.removeEventListener('change', onChange);
    app.removeEventListener('click', onClick);
  };
}

/** Navigates inside the page (main.ts routes on popstate). */
function go(path: string): void {
  history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate'));
}

function gameInput(g: NewGame, me: { id: string; name: string | null }): Record<string, unknown> {
  const seats = [{ player: me.id, ...(me.name ? { name: me.name } : {}) }, ...Array.from({ length: g.players - 1 }, () => ({ open: true }))];
  return { kind: g.kind, ruleset: g.ruleset, seats, ...(g.timeControl ? { timeControl: g.timeControl } : {}) };
}

function challengeInput(g: NewGame): Record<string, unknown> {
  return {
    kind: g.kind,
    ruleset: g.ruleset,
    seat: g.seat,
    ...(g.opponent === 'challenge' ? { to: g.to } : {}),
    ...(g.message ? { message: g.message } : {}),
    ...(g.timeControl ? { timeControl: g.timeControl } : {}),
  };
}

function frame(lobby: Lobby): Markup {
  const me = lobby.me.player;
  return html`<h1>Play</h1>
    ${me ? html`<p class="meta">Signed in as <b>${me.name ?? me.id}</b> · your player id <code data-my-id>${me.id}</code> (give it to be challenged)</p>` : html`<p class="error" role="alert">This key is not a player’s.</p>`}
    <div class="lobby">
      <section aria-labelledby="new-game"><h2 id="new-game">New game</h2>${newGameForm(lobby.gameKinds)}</section>
      <div data-lobby></div>
    </div>`;
}

function lists(lobby: Lobby): Markup {
  const me = lobby.me.player?.id;
  const others = lobby.open.nodes.filter((c) => c.challenger.id !== me);
  const seats = lobby.seats.nodes.filter((g) => !g.seats.some((s) => s.player === me) && g.seats.some((s) => !s.taken));
  const section = (name: string, title: string, items: Markup[], empty: string) =>
    html`<section aria-labelledby="lobby-${name}"><h2 id="lobby-${name}">${title} <span class="muted">(${items.length})</span></h2>
      ${items.length ? html`<ul class="lobby-list" data-list="${name}">${items}</ul>` : html`<p class="muted">${empty}</p>`}</section>`;
  return html`${section(
    'incoming',
    'Challenges to you',
    lobby.incoming.nodes.map((c) => challenge(c, 'from', [button('accept', c.id, 'Accept'), button('decline', c.id, 'Decline')])),
    'Nobody challenged you.',
  )}
    ${section(
      'outgoing',
      'Your challenges',
      lobby.outgoing.nodes.map((c) => challenge(c, 'to', [button('cancel', c.id, 'Cancel')])),
      'No challenge of yours is open.',
    )}
    ${section(
      'open',
      'Open challenges',
      others.map((c) => challenge(c, 'from', [button('accept', c.id, 'Accept')])),
      'No open challenge from another player.',
    )}
    ${section(
      'seats',
      'Open seats',
      seats.map(
        (g) =>
          html`<li data-game="${g.id}"><span><span class="kind">${g.kind}</span> with ${g.seats
            .filter((s) => s.taken)
            .map((s) => s.name ?? `seat ${s.index}`)
            .join(', ')} · ${g.seats.filter((s) => !s.taken).length} open</span> ${button('join', g.id, 'Join')}</li>`,
      ),
      'No game has an open seat.',
    )}`;
}

const button = (action: string, id: string, label: string): Markup => html`<button type="button" data-do="${action}" data-id="${id}">${label}</button>`;

function challenge(c: Challenge, side: 'from' | 'to', actions: Markup[]): Markup {
  const who = side === 'from' ? c.challenger : c.challenged;
  return html`<li data-challenge="${c.id}"><span><span class="kind">${c.kind}</span> ${rules(c)} · ${timeControl(c.timeControl)} ·
    ${side === 'from' ? 'from' : 'to'} <b>${who ? (who.name ?? who.id) : 'anyone'}</b> · seat ${c.seat.toLowerCase()} ·
    <span class="muted">expires ${untilText(Date.parse(c.expiresAt) - Date.now())}</span>
    ${c.challengerMessage ? html`<q>${c.challengerMessage}</q>` : ''}</span> <span class="actions">${actions}</span></li>`;
}

/** The ruleset as a player names it: a match's length, a preset, a profile. */
function rules(c: Challenge): string {
  const r = c.ruleset;
  if (c.kind === 'backgammon') return `${r.matchLength ?? 1}-point match`;
  if (c.kind === 'chicken-foot') return String(r.preset ?? '');
  if (c.kind === 'cerke') return `${r.profile ?? ''} ${r.seasons ? `${r.seasons} seasons` : ''}`.trim();
  return '';
}

function timeControl(t: Challenge['timeControl']): string {
  if (!t) return 'no clock';
  if (t.kind === 'FISCHER') return `${clockText((t.baseSeconds ?? 0) * 1000)} + ${t.incrementSeconds ?? 0} s`;
  return `${clockText((t.perMoveSeconds ?? 0) * 1000)} a move`;
}
