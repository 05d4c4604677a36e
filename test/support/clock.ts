import type { Config } from '../../src/config/config.js';
import { Clock } from '../../src/referee/application/clock.js';
import { RefereeModule } from '../../src/referee/application/referee.module.js';
import { startApp, type TestApp } from './app.js';

/** A clock that moves only when told: a game's time runs out without anyone waiting for it. */
export class ManualClock extends Clock {
  private ms: number;

  constructor(start: Date = new Date()) {
    super();
    // Whole milliseconds, as event stamps have them.
    this.ms = Math.floor(start.getTime());
  }

  now(): Date {
    return new Date(this.ms);
  }

  set(date: Date): void {
    this.ms = date.getTime();
  }

  advance(ms: number): void {
    this.ms += ms;
  }
}

/**
 * startApp with `clock` as the referee's Clock. The service is built by createApp, which has no
 * say in the referee module's options: the module's `clock` option is set for the duration of
 * the build.
 */
export async function startAppWithClock(clock: Clock, overrides: Partial<Config> = {}): Promise<TestApp> {
  const forRoot = RefereeModule.forRoot;
  RefereeModule.forRoot = (options) => forRoot.call(RefereeModule, { ...options, clock: () => clock });
  try {
    return await startApp(overrides);
  } finally {
    RefereeModule.forRoot = forRoot;
  }
}
