import { RefereeError } from '../core/errors.js';

/** The door every command of this process goes through: closed on shutdown, once the commands in flight are done. */
export class CommandGate {
  private draining = false;
  private inFlight = 0;
  private drained: (() => void) | null = null;

  /** True once drain() began: no new commands are taken. */
  get isDraining(): boolean {
    return this.draining;
  }

  get commandsInFlight(): number {
    return this.inFlight;
  }

  /** Runs one command unless the process is draining for shutdown. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.draining) throw new RefereeError('SHUTTING_DOWN', 'the referee is shutting down; try again shortly');
    this.inFlight++;
    try {
      return await fn();
    } finally {
      if (--this.inFlight === 0 && this.drained) this.drained();
    }
  }

  /** Stop taking commands and wait for the ones in flight (graceful shutdown). */
  async drain(): Promise<void> {
    this.draining = true;
    if (this.inFlight === 0) return;
    await new Promise<void>((resolve) => (this.drained = resolve));
  }
}
