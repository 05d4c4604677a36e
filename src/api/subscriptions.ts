import type { Viewer } from '../engines/kit/index.js';
import type { Appended } from '../referee/application/live-games.js';
import type { RefereeService } from '../referee/application/referee.service.js';
import { viewEvent } from '../referee/core/game/views.js';
import type { StoredEvent } from '../referee/core/stream.js';

/**
 * A game's events for one viewer: the stored ones after `afterSeq`, then live ones as they are
 * appended. The listener is attached before reading the past, so nothing falls in between.
 * Completing the subscription (`return`) ends the wait for the next event at once, so the
 * listener is dropped and the subscription's slot freed without waiting for another move.
 */
export function gameEventStream(referee: RefereeService, gameId: string, afterSeq: number, viewer: Viewer): AsyncIterableIterator<StoredEvent> {
  let stop: () => void = () => undefined;
  const stopped = new Promise<'stopped'>((resolve) => {
    stop = () => resolve('stopped');
  });

  async function* run(): AsyncGenerator<StoredEvent> {
    const queue: StoredEvent[] = [];
    let wake: (() => void) | null = null;
    const listener = (a: Appended) => {
      for (const s of a.steps) queue.push(viewEvent(a.game, s.event, s.before, s.after, viewer));
      wake?.();
    };
    referee.bus.on(gameId, listener);
    try {
      let last = afterSeq;
      for (;;) {
        const page = await referee.events(gameId, last, viewer);
        for (const e of page) yield e;
        if (page.length === 0) break;
        last = page.at(-1)!.seq;
      }
      for (;;) {
        while (queue.length > 0) {
          const e = queue.shift()!;
          if (e.seq > last) {
            last = e.seq;
            yield e;
          }
        }
        const woke = await Promise.race([new Promise<'woke'>((resolve) => (wake = () => resolve('woke'))), stopped]);
        wake = null;
        if (woke === 'stopped') return;
      }
    } finally {
      referee.bus.off(gameId, listener);
    }
  }

  const events = run();
  return {
    next: () => events.next(),
    return: (value?: unknown) => {
      stop();
      return events.return(value as undefined);
    },
    throw: (err?: unknown) => {
      stop();
      return events.throw(err);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
