import type { Viewer } from '../engines/kit/index.js';
import type { Appended } from '../referee/application/live-games.js';
import type { RefereeService } from '../referee/application/referee.service.js';
import { viewEvent } from '../referee/core/game/views.js';
import type { StoredEvent } from '../referee/core/stream.js';

/** How long to wait before reading the log again when it had nothing beyond what was served. */
const RETRY_READ_MS = 50;

/** The event a finished game's stream ends with. */
const LAST_EVENT = 'SeedRevealed';

/**
 * A game's events for one viewer: the stored ones after `afterSeq`, then live ones as they are
 * appended. The listener is attached before reading the past, so nothing falls in between.
 * Completing the subscription (`return`) ends the wait for the next event at once, so the
 * listener is dropped and the subscription's slot freed without waiting for another move.
 * The stream completes by itself after the game's last event (`SeedRevealed`: a finished
 * game's stream always ends with GameEnded and SeedRevealed).
 */
export function gameEventStream(referee: RefereeService, gameId: string, afterSeq: number, viewer: Viewer): AsyncIterableIterator<StoredEvent> {
  let stop: () => void = () => undefined;
  const stopped = new Promise<'stopped'>((resolve) => {
    stop = () => resolve('stopped');
  });

  async function* run(): AsyncGenerator<StoredEvent> {
    const queue: StoredEvent[] = [];
    // The newest version the bus told of: events up to it that the queue lacks are read from the log.
    let told = 0;
    let wake: (() => void) | null = null;
    const listener = (a: Appended) => {
      for (const s of a.steps) queue.push(viewEvent(a.game, s.event, s.before, s.after, viewer));
      told = Math.max(told, a.game.version);
      wake?.();
    };
    referee.bus.on(gameId, listener);
    try {
      let last = afterSeq;
      let readLog = true;
      for (;;) {
        // The past, and then only what the bus told of without its events (a game caught up from the log).
        let readSome = false;
        const didRead = readLog;
        if (readLog) {
          readLog = false;
          for (;;) {
            const page = await referee.events(gameId, last, viewer);
            for (const e of page) yield e;
            if (page.length === 0) break;
            readSome = true;
            last = page.at(-1)!.seq;
            if (page.at(-1)!.type === LAST_EVENT) return;
          }
          // Subscribed past the end of a finished game: nothing more will come.
          const game = await referee.game(gameId);
          if (game.ended && last >= game.version) return;
        }
        while (queue.length > 0 && queue[0].seq <= last + 1) {
          const e = queue.shift()!;
          if (e.seq > last) {
            last = e.seq;
            yield e;
            if (e.type === LAST_EVENT) return;
          }
        }
        const behind = queue.length > 0 || told > last;
        // Behind what the bus told: read the log at once, unless this turn's read found nothing
        // new (a catch-up still being stored here): then again after a short wait. Told versions
        // are never forgotten, so a wake-up that arrives during a read is not lost.
        if (behind && (readSome || !didRead)) {
          readLog = true;
          continue;
        }
        const woke = await Promise.race([
          new Promise<'woke'>((resolve) => {
            wake = () => resolve('woke');
            if (behind) setTimeout(wake, RETRY_READ_MS);
          }),
          stopped,
        ]);
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
