import { ApiError, gql } from '../api.js';
import { clockText } from '../clock.js';
import { html, type Markup } from '../html.js';
import type { GameClock } from './clocks.js';

/**
 * What a seat does with its clock from the game's page (docs/time-controls.md, "Adding time and
 * pausing", "Aborting a game"): take vacation, ask for a pause or answer the other seats' request,
 * abort a game nobody moved in yet; and, for everyone, the time each seat was given (vacation,
 * a seat's gift, the organizer's). Each command is the API's own; the service refuses what the
 * rules do not allow, and its refusal is shown as it comes.
 */
const ANSWER = '__typename ... on Rejection { code message }';
const VACATION = `mutation($id: ID!, $seat: Int!, $s: Int!) { addTime(gameId: $id, seat: $seat, seconds: $s, vacation: true) { ${ANSWER} } }`;
const PAUSE = `mutation($id: ID!) { pauseClock(gameId: $id) { ${ANSWER} } }`;
const RESUME = `mutation($id: ID!) { resumeClock(gameId: $id) { ${ANSWER} } }`;
const DECLINE = `mutation($id: ID!) { declinePause(gameId: $id) { ${ANSWER} } }`;
const ABORT = `mutation($id: ID!) { abortGame(gameId: $id) { ${ANSWER} } }`;

/** What these controls read of the game's page. */
export interface SeatGame {
  id: string;
  status: string;
  mySeat: number | null;
  clock: GameClock | null;
}
/** An event of the game's log as the page holds it. */
export interface LoggedEvent {
  seq: number;
  type: string;
  actor: number | null;
  payload: unknown;
}
interface TimeAdded {
  seat: number;
  ms: number;
  by: number | 'organizer';
  vacation: boolean;
}

const HOUR = 3_600;
const DAY = 86_400;

/**
 * Requests to resume this browser chose not to accept, by game and request. A pause request is
 * declined through the API (declinePause: the requests are withdrawn for every seat); a request to
 * resume has nothing to refuse (the clocks stay paused until every seat asks): its prompt is hidden.
 */
const declined = new Set<string>();
const requestKey = (game: SeatGame): string => `${game.id}:${game.clock?.paused}:${game.clock?.pauseRequests.join(',')}`;

/** Vacation spans a seat may choose: whole days, or hours when less than a day is left. */
function vacationSpans(leftMs: number): { seconds: number; label: string }[] {
  const days = Math.floor(leftMs / 1000 / DAY);
  if (days > 0) return Array.from({ length: Math.min(days, 60) }, (_, i) => ({ seconds: (i + 1) * DAY, label: `${i + 1} d` }));
  return Array.from({ length: Math.floor(leftMs / 1000 / HOUR) }, (_, i) => ({ seconds: (i + 1) * HOUR, label: `${i + 1} h` }));
}

/** A seat moved already (the referee's own plays, such as a forced move, do not count). */
const someoneMoved = (events: LoggedEvent[]): boolean =>
  events.some((e) => (e.type === 'ActionTaken' || e.type === 'Resigned') && e.actor !== null && (e.payload as { forced?: boolean }).forced !== true);

/** The section under the clocks: the seat's controls, and the time given so far. */
export function clockControls(game: SeatGame, events: LoggedEvent[], seatName: (i: number) => string): Markup {
  const seat = game.mySeat;
  const playing = seat !== null && (game.status === 'ACTIVE' || game.status === 'WAITING');
  const gifts = events.filter((e) => e.type === 'TimeAdded').map((e) => given(e.payload as TimeAdded, seatName));
  const canAbort = playing && !someoneMoved(events);
  const clock = game.status === 'ACTIVE' ? game.clock : null;
  if (!gifts.length && !canAbort && !(playing && clock)) return html``;
  return html`<section class="clock-controls" aria-label="Time and pauses"><h2>Time</h2>
    ${playing && clock && seat !== null ? html`${vacation(clock, seat)}${pause(game, clock, seat, seatName)}` : ''}
    ${gifts.length ? html`<h3 class="small">Time given</h3><ul class="gifts small">${gifts.map((g) => html`<li>${g}</li>`)}</ul>` : ''}
    ${canAbort ? html`<p><button type="button" data-clock-cmd="abort">Abort the game</button> <span class="muted small">No move yet: it ends with no result.</span></p>` : ''}</section>`;
}

function given(t: TimeAdded, seatName: (i: number) => string): Markup {
  const amount = clockText(t.ms);
  if (t.vacation) return html`${seatName(t.seat)} took ${amount} of vacation`;
  if (t.by === 'organizer') return html`<b>The organizer</b> gave ${seatName(t.seat)} ${amount}`;
  return html`${seatName(t.by)} gave ${seatName(t.seat)} ${amount}`;
}

function vacation(clock: GameClock, seat: number): Markup {
  if (clock.kind !== 'CORRESPONDENCE') return html``;
  const left = clock.vacationLeftMs[seat] ?? 0;
  const spans = vacationSpans(left);
  return html`<p class="vacation">Vacation left: <b data-vacation-left>${left > 0 ? clockText(left) : 'none'}</b></p>
    ${
      spans.length
        ? html`<p><label>Take <select name="vacation-span">${spans.map((s) => html`<option value="${s.seconds}">${s.label}</option>`)}</select></label>
      <button type="button" data-clock-cmd="vacation">Take vacation</button></p>`
        : ''
    }`;
}

function pause(game: SeatGame, clock: GameClock, seat: number, seatName: (i: number) => string): Markup {
  const asked = clock.pauseRequests.includes(seat);
  const others = clock.pauseRequests.filter((s) => s !== seat);
  const verb = clock.paused ? 'resume' : 'pause';
  if (asked)
    return html`<p class="pause" data-pause="asked">You asked to ${verb} the clocks; waiting for ${clock.remainingMs
      .map((_, i) => i)
      .filter((i) => !clock.pauseRequests.includes(i))
      .map(seatName)
      .join(', ')}.</p>`;
  if (others.length && !declined.has(requestKey(game)))
    return html`<div class="pause-request" role="alert" data-pause="requested"><p><b>${others.map(seatName).join(', ')}</b> ${others.length > 1 ? 'ask' : 'asks'} to ${verb} the clocks.</p>
      <p><button type="button" data-clock-cmd="${verb}">Accept</button> <button type="button" data-clock-cmd="decline">Decline</button></p></div>`;
  return html`<p class="pause"><button type="button" data-clock-cmd="${verb}">${clock.paused ? 'Ask to resume' : 'Ask to pause'}</button>
    <span class="muted small">${clock.paused ? 'The clocks resume' : 'They pause'} once every seat asked.</span></p>`;
}

/**
 * Runs the clock command a click names, with the page's token; answers what to tell the player
 * (a refusal's code and reason, or nothing), or null when the click was not on these controls.
 */
export function clockCommand(target: Element, game: SeatGame | null, token: string | null): Promise<string> | null {
  const button = target.closest<HTMLElement>('[data-clock-cmd]');
  if (!button || !game) return null;
  const id = game.id;
  const run = async (query: string, variables: Record<string, unknown>) => {
    try {
      const answer = Object.values(await gql<Record<string, { __typename: string; code?: string; message?: string }>>(query, variables, token))[0];
      return answer.__typename === 'Rejection' ? `${answer.code}: ${answer.message}` : '';
    } catch (err) {
      return err instanceof ApiError ? `${err.code}: ${err.message}` : (err as Error).message;
    }
  };
  switch (button.dataset.clockCmd) {
    case 'vacation': {
      const span = Number(button.closest('section')?.querySelector<HTMLSelectElement>('[name="vacation-span"]')?.value);
      return run(VACATION, { id, seat: game.mySeat, s: span });
    }
    case 'pause':
      return run(PAUSE, { id });
    case 'resume':
      return run(RESUME, { id });
    case 'decline':
      if (!game.clock?.paused) return run(DECLINE, { id });
      declined.add(requestKey(game));
      return Promise.resolve('');
    case 'abort':
      return run(ABORT, { id });
    default:
      return null;
  }
}
