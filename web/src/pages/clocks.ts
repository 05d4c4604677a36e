import { clockText, isLow, localTime, untilText } from '../clock.js';
import { html, type Markup } from '../html.js';

/** A game's clocks as `game { clock }` answers them, as of the request. */
export interface GameClock {
  kind: 'CORRESPONDENCE' | 'FISCHER';
  paused: boolean;
  /** Seats asking to pause (or, while paused, to resume). */
  pauseRequests: number[];
  running: number[];
  remainingMs: number[];
  timedOut: number[];
  deadline: string | null;
  /** Per seat, vacation it may still take (correspondence). */
  vacationLeftMs: number[];
  control: { baseSeconds: number | null; perMoveSeconds: number | null };
}

export const CLOCK_FIELDS = 'clock { kind paused pauseRequests running remainingMs timedOut deadline vacationLeftMs control { baseSeconds perMoveSeconds } }';

/** A seat's time left now: the service's figure, less what passed since it was read while the seat's clock runs. */
function leftNow(clock: GameClock, seat: number, readAt: number): number {
  const running = clock.running.includes(seat) && !clock.paused;
  return Math.max(0, clock.remainingMs[seat] - (running ? Date.now() - readAt : 0));
}

const fullMs = (clock: GameClock) => ((clock.kind === 'FISCHER' ? clock.control.baseSeconds : clock.control.perMoveSeconds) ?? 0) * 1000;

/** Each seat's clock, the running one marked; a correspondence deadline in the viewer's time zone. */
export function clocksView(clock: GameClock | null, seatName: (i: number) => string, readAt: number): Markup {
  if (!clock) return html``;
  return html`<section class="clocks" aria-label="Clocks"><h2>Clocks${clock.paused ? html` <span class="muted">(paused)</span>` : ''}</h2>
    <ul>${clock.remainingMs.map((_, i) => {
      const out = clock.timedOut.includes(i);
      const ms = leftNow(clock, i, readAt);
      const classes = ['clock', clock.running.includes(i) ? 'running' : '', isLow(ms, fullMs(clock)) ? 'low' : '', out ? 'out' : ''].filter(Boolean).join(' ');
      return html`<li class="${classes}" data-seat="${i}"><span class="who">${seatName(i)}</span>
        <span class="time" data-clock="${i}">${clockText(ms)}</span>${out ? html` <b class="flag">out of time</b>` : clock.running.includes(i) ? html` <span class="muted small">to move</span>` : ''}</li>`;
    })}</ul>
    ${clock.kind === 'CORRESPONDENCE' && clock.deadline ? html`<p class="small">Deadline <time datetime="${clock.deadline}">${localTime(clock.deadline)}</time>, <span data-until>${untilText(Date.parse(clock.deadline) - Date.now())}</span></p>` : ''}</section>`;
}

/** Counts the shown clocks down between the service's answers (it alone records a timeout). */
export function tickClocks(root: HTMLElement, clock: GameClock | null, readAt: number): void {
  if (!clock) return;
  for (const el of root.querySelectorAll<HTMLElement>('[data-clock]')) {
    const ms = leftNow(clock, Number(el.dataset.clock), readAt);
    el.textContent = clockText(ms);
    el.parentElement?.classList.toggle('low', isLow(ms, fullMs(clock)));
  }
  const until = root.querySelector('[data-until]');
  if (until && clock.deadline) until.textContent = untilText(Date.parse(clock.deadline) - Date.now());
}
