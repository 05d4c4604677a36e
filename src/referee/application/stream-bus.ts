import { EventEmitter } from 'node:events';

/**
 * A workflow's step for a stored batch of one stream: the promise of what it does (never
 * rejected: a step says its own failures), or undefined when the batch asks nothing of it.
 */
export type Reaction<B> = (id: string, batch: B) => Promise<void> | undefined;

const DONE = Promise.resolve();

/**
 * Tells what one aggregate's streams stored, once stored: subscribers listen under a stream's id
 * (an EventEmitter's events), and reactions (workflows) hear every stream. `publish` answers the
 * promise of the reactions' steps, so that a command can answer once what it caused in this
 * process is done, too.
 */
export class StreamBus<B> extends EventEmitter {
  private readonly reactions = new Set<Reaction<B>>();

  constructor() {
    super();
    this.setMaxListeners(0);
  }

  /** Calls `reaction` with every batch published from now on, until the returned function is called. */
  react(reaction: Reaction<B>): () => void {
    this.reactions.add(reaction);
    return () => this.reactions.delete(reaction);
  }

  publish(id: string, batch: B): Promise<void> {
    this.emit(id, batch);
    let steps: Promise<void>[] | null = null;
    for (const reaction of this.reactions) {
      const step = reaction(id, batch);
      if (step) (steps ??= []).push(step);
    }
    return steps ? Promise.all(steps).then(() => undefined) : DONE;
  }
}
