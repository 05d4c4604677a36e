/**
 * Where the referee reads the time for every decision (event stamps, clocks, deadlines). An
 * abstract class so that Nest can inject it by its type; the host provides the system clock, and
 * tests a clock they move by hand, so that a game's time runs out without waiting for it.
 */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
