import { ApiError, actingToken, gql, subscribe, tokenFromFragment } from '../api.js';
import { boardFor } from '../boards/index.js';
import type { BoardContext } from '../boards/board.js';
import { html, type Markup } from '../html.js';
import { layout, type Stop } from '../layout.js';
import type { LogStatus } from '../verify/log.js';
import { clockCommand, clockControls } from './clock-controls.js';
import { CLOCK_FIELDS, clocksView, type GameClock, tickClocks } from './clocks.js';
import { dragPicks } from './drag.js';
import { followLog, logView } from './log-status.js';
import { GAME_RATING_FIELDS, gameRatingsView, loadSeatRatings, type RatedGame } from './ratings.js';

const GAME = `query($id: ID!) { game(id: $id) { id kind status version toAct mySeat view legalActions result
  seats { index name player } fairness { seedCommitment serverSeed randomSource } ${CLOCK_FIELDS} ${GAME_RATING_FIELDS} } }`;
/** A page of the log after a seq (the cursor is the seq, as the subscription's afterSeq). */
const EVENTS = `query($id: ID!, $after: String) { gameEvents(gameId: $id, after: $after) { nodes { seq type actor payload createdAt } } }`;
const AT = `query($id: ID!, $seq: Int!) { gameStateAt(gameId: $id, seq: $seq) { seq view result } }`;
const VERIFY = `query($id: ID!) { verifyGame(gameId: $id) { ok summary badSeq } }`;
const LIVE = `subscription($id: ID!, $after: Int) { gameEvents(gameId: $id, afterSeq: $after) { seq type actor payload createdAt } }`;
const ACT = `mutation($id: ID!, $moveId: String!, $action: JSON!, $v: Int) { submitAction(gameId: $id, moveId: $moveId, action: $action, expectedVersion: $v) {
  __typename ... on Rejection { code message } } }`;

interface Game extends RatedGame {
  id: string;
  kind: string;
  status: string;
  version: number;
  toAct: number[];
  mySeat: number | null;
  view: unknown;
  legalActions: unknown[];
  result: { summary?: string } | null;
  seats: { index: number; name: string | null }[];
  fairness: { seedCommitment: string; serverSeed: string | null; randomSource: string };
  clock: GameClock | null;
}
interface GameEvent {
  seq: number;
  type: string;
  actor: number | null;
  payload: { action?: unknown };
  createdAt: string;
}

/**
 * One game, live: its board for the viewer (a seat by the fragment's token or the signed-in
 * player's key, else a spectator), its clocks counting down,
 * whose turn it is, the events as they arrive, a replay slider over its history, and its
 * verification. A seat acts by clicking what its board marks as legal.
 */
export function gamePage(app: HTMLElement, id: string): Stop {
  const token = actingToken();
  const seatToken = tokenFromFragment() !== null;
  let game: Game | null = null;
  /** When `game` was read (its clocks count down from there). */
  let readAt = Date.now();
  let events: GameEvent[] = [];
  /** The replayed seq, or null when following the game live. */
  let replay: { seq: number; view: unknown; result: unknown } | null = null;
  let verdict: { ok: boolean; summary: string } | null = null;
  /** Its place in the transparency log, once it has ended (checked in the browser). */
  let logged: LogStatus | 'checking' | null = null;
  let stopLog: Stop = () => {};
  let notice: Markup | string = '';
  /** What the seat has picked by hand this turn (kept until the game moves on). */
  let picks: readonly string[] = [];
  let stopLive: Stop = () => {};
  let stopped = false;

  const render = () => {
    if (!game || stopped) return;
    // Focus survives a re-render by its action index or picked place (keyboard players keep their place).
    const active = (document.activeElement as HTMLElement | null)?.dataset;
    const focused = active?.action !== undefined ? `[data-action="${CSS.escape(active.action)}"]` : active?.pick !== undefined ? `[data-pick="${CSS.escape(active.pick)}"]` : null;
    app.innerHTML = layout(view(game, events, replay, { verdict, logged }, notice, seatToken, readAt, picks)).text;
    if (focused) (app.querySelector(focused) as HTMLElement | null)?.focus();
  };

  const refresh = async () => {
    try {
      const read = (await gql<{ game: Game }>(GAME, { id }, token)).game;
      if (read.version !== game?.version) picks = [];
      game = read;
      readAt = Date.now();
      await loadSeatRatings(game);
      const fresh = (await gql<{ gameEvents: { nodes: GameEvent[] } }>(EVENTS, { id, after: String(events.at(-1)?.seq ?? 0) })).gameEvents.nodes;
      events = [...events, ...fresh.filter((e) => e.seq > (events.at(-1)?.seq ?? 0))];
      if ((game.status === 'FINISHED' || game.status === 'ABORTED') && !verdict) verdict = (await gql<{ verifyGame: { ok: boolean; summary: string } }>(VERIFY, { id })).verifyGame;
      if ((game.status === 'FINISHED' || game.status === 'ABORTED') && !logged) {
        logged = 'checking';
        // The log's verifier is a chunk of its own (scripts/build-pages.mjs): only an ended game's page loads it.
        stopLog = followLog(
          async () => (await import('../verify/log.js')).gameLogStatus(id),
          (status) => {
            logged = status;
            render();
          },
        );
      }
      render();
    } catch (err) {
      // A game whose stored history fails its check is not served: say so with the verifier's own words.
      const failed = err instanceof ApiError && err.code === 'INTEGRITY_ERROR' ? await gql<{ verifyGame: Verdict }>(VERIFY, { id }).catch(() => null) : null;
      app.innerHTML = layout(
        failed
          ? html`<h1>Game <code>${id}</code></h1><section class="verification" aria-label="Verification">${badge(failed.verifyGame)}</section>`
          : html`<p class="error" role="alert">${(err as Error).message}</p>`,
      ).text;
    }
  };

  // One refresh at a time; a burst of events asks for one more at most.
  let pending: Promise<void> | null = null;
  let again = false;
  const queueRefresh = () => {
    if (pending) {
      again = true;
      return;
    }
    pending = refresh().finally(() => {
      pending = null;
      if (again) {
        again = false;
        queueRefresh();
      }
    });
  };

  void refresh().then(() => {
    if (stopped) return;
    stopLive = subscribe<{ gameEvents: GameEvent }>(LIVE, { id, after: game?.version ?? 0 }, token, () => queueRefresh());
  });

  const act = async (index: number) => {
    if (!game || replay) return;
    const action = game.legalActions[index];
    if (action === undefined) return;
    try {
      const answer = (await gql<{ submitAction: { __typename: string; code?: string; message?: string } }>(ACT, { id, moveId: crypto.randomUUID(), action, v: game.version }, token)).submitAction;
      notice = answer.__typename === 'Rejection' ? `${answer.code}: ${answer.message}` : '';
    } catch (err) {
      notice = err instanceof ApiError ? `${err.code}: ${err.message}` : (err as Error).message;
    }
    queueRefresh();
  };

  const verify = async () => {
    verdict = (await gql<{ verifyGame: { ok: boolean; summary: string } }>(VERIFY, { id })).verifyGame;
    render();
  };

  const showAt = async (seq: number) => {
    if (!game) return;
    if (seq >= game.version) replay = null;
    else {
      const at = (await gql<{ gameStateAt: { seq: number; view: unknown; result: unknown } }>(AT, { id, seq }, token)).gameStateAt;
      replay = at;
    }
    render();
  };

  const pick = (token: string) => {
    if (!game || replay) return;
    const picked = boardFor(game.kind)?.pick?.(contextOf(game, null, picks), token);
    if (!picked) return;
    if ('action' in picked) {
      void act(picked.action);
      return;
    }
    picks = picked as readonly string[];
    render();
  };

  const onClick = (e: Event) => {
    const target = e.target as HTMLElement;
    const picked = target.closest<HTMLElement>('[data-pick]');
    if (picked && app.contains(picked)) {
      e.preventDefault();
      pick(picked.dataset.pick ?? '');
      return;
    }
    const actor = target.closest<HTMLElement>('[data-action]');
    if (actor && app.contains(actor)) {
      e.preventDefault();
      void act(Number(actor.dataset.action));
      return;
    }
    const command = clockCommand(target, game, token);
    if (command) {
      void command.then((said) => {
        notice = said;
        queueRefresh();
      });
      return;
    }
    const step = target.closest<HTMLElement>('[data-step]');
    if (step && game) void showAt(Math.max(1, Math.min(game.version, (replay?.seq ?? game.version) + Number(step.dataset.step))));
    if (target.closest('[data-verify]')) void verify();
  };
  const onKey = (e: KeyboardEvent) => {
    const { action, pick } = (e.target as HTMLElement).dataset ?? {};
    if ((e.key === 'Enter' || e.key === ' ') && (action !== undefined || pick !== undefined)) onClick(e);
  };
  const onInput = (e: Event) => {
    const slider = e.target as HTMLInputElement;
    if (slider.name === 'replay') void showAt(Number(slider.value));
  };
  const ticker = window.setInterval(() => tickClocks(app, game?.clock ?? null, readAt), 500);
  const stopDragging = dragPicks(app, pick);
  app.addEventListener('click', onClick);
  app.addEventListener('keydown', onKey);
  app.addEventListener('change', onInput);
  return () => {
    stopped = true;
    stopLive();
    stopLog();
    clearInterval(ticker);
    stopDragging();
    app.removeEventListener('click', onClick);
    app.removeEventListener('keydown', onKey);
    app.removeEventListener('change', onInput);
  };
}

function view(
  game: Game,
  events: GameEvent[],
  replay: { seq: number; view: unknown; result: unknown } | null,
  checked: { verdict: Verdict | null; logged: LogStatus | 'checking' | null },
  notice: Markup | string,
  hasToken: boolean,
  readAt: number,
  picks: readonly string[],
): Markup {
  const board = boardFor(game.kind);
  const names = game.seats.map((s) => s.name);
  const seatName = (i: number) => names[i] ?? `seat ${i}`;
  const ctx = contextOf(game, replay, picks);
  const who = game.mySeat === null ? (hasToken ? 'this token holds no seat here: spectating' : 'spectating') : `playing as ${seatName(game.mySeat)}`;
  const turn =
    game.status === 'FINISHED'
      ? (game.result?.summary ?? 'Game over')
      : game.status === 'ABORTED'
        ? 'Aborted before any move: no result'
        : game.toAct.length
          ? `To act: ${game.toAct.map(seatName).join(', ')}`
          : '';
  const at = replay?.seq ?? game.version;
  return html`<h1><span class="kind">${game.kind}</span> game <code>${game.id}</code></h1>
    <p class="meta"><span class="status status-${game.status.toLowerCase()}">${game.status}</span> · ${who} · <span aria-live="polite">${turn}</span></p>
    <div class="game">
      <section class="board" aria-label="Board${replay ? `, after event ${replay.seq}` : ''}">${board ? board.render(ctx) : html`<pre>${JSON.stringify(ctx.view, null, 1)}</pre>`}</section>
      <aside class="side">
        ${clocksView(game.status === 'ACTIVE' || game.status === 'FINISHED' ? game.clock : null, seatName, readAt)}
        ${clockControls(game, events, seatName)}
        ${gameRatingsView(game, seatName)}
        <p class="notice" role="status">${notice}</p>
        <section class="replay" aria-label="Replay">
          <h2>Replay</h2>
          <input type="range" name="replay" min="1" max="${game.version}" value="${at}" aria-label="Event to show" />
          <p><button type="button" data-step="-1" aria-label="Previous event">◀</button> <span>${replay ? `event ${at} of ${game.version}` : `live, event ${game.version}`}</span>
          <button type="button" data-step="1" aria-label="Next event">▶</button></p>
        </section>
        ${verification(game, checked.verdict, checked.logged)}
        <section class="events" aria-label="Events"><h2>Events</h2><ol reversed tabindex="0" aria-label="Events, newest first">${[...events]
          .reverse()
          .slice(0, 200)
          .map((e) => html`<li value="${e.seq}" class="${e.seq === at && replay ? 'current' : ''}">${describe(e, board?.notation, seatName)}</li>`)}</ol></section>
      </aside>
    </div>`;
}

/** What the board is drawn from: the game live (with the seat's picks), or as it was at a replayed event. */
function contextOf(game: Game, replay: { view: unknown; result: unknown } | null, picks: readonly string[]): BoardContext {
  return {
    kind: game.kind,
    view: replay ? replay.view : game.view,
    viewer: game.mySeat,
    legalActions: replay ? [] : game.legalActions,
    toAct: replay ? [] : game.toAct,
    seatNames: game.seats.map((s) => s.name),
    result: replay ? replay.result : game.result,
    picks: replay ? [] : picks,
  };
}

function describe(e: GameEvent, notation: ((action: unknown, ctx: { seat: number | null }) => string) | undefined, seatName: (i: number) => string): Markup {
  if (e.type === 'ActionTaken' && notation) return html`<b>${seatName(e.actor ?? 0)}</b> ${notation(e.payload.action, { seat: e.actor })}`;
  return html`${e.actor !== null ? html`<b>${seatName(e.actor)}</b> ` : ''}${e.type}`;
}

interface Verdict {
  ok: boolean;
  summary: string;
}

const badge = (verdict: Verdict): Markup =>
  html`<p class="badge ${verdict.ok ? 'badge-ok' : 'badge-bad'}" data-verdict="${verdict.ok ? 'ok' : 'bad'}">${verdict.ok ? '✔ verified' : '✘ verification failed'}</p><p class="muted small">${verdict.summary}</p>`;

function verification(game: Game, verdict: Verdict | null, logged: LogStatus | 'checking' | null): Markup {
  const shown = verdict ? badge(verdict) : html`<p><button type="button" data-verify>Verify now</button></p>`;
  const finished = game.status === 'FINISHED';
  return html`<section class="verification" aria-label="Verification"><h2>Verification</h2>${shown}
    <p class="small">Seed commitment <code class="hash">${game.fairness.seedCommitment}</code></p>
    ${game.fairness.serverSeed ? html`<p class="small">Seed (revealed) <code class="hash">${game.fairness.serverSeed}</code></p>` : html`<p class="small muted">The seed is revealed when the game ends.</p>`}
    ${finished ? html`<p><a href="/api/games/${game.id}/bundle" download>Download the bundle</a> · <a href="/api/games/${game.id}/record" download>the record</a></p>` : ''}
    ${logged ? html`<h3>Public log</h3>${logView(logged, 'game')}` : ''}</section>`;
}
