import type { Result } from '../../engines/kit/index.js';
import { RefereeError } from '../core/errors.js';
import type { StoredEvent, StreamHead } from '../core/stream.js';
import { AppendConflict } from '../store/event-store.js';
import type { CommandGate } from './command-gate.js';
import type { HeldStreams } from './held-streams.js';

/** A decision chained after its stream's head: the stream as it is once stored, the events, and the batch that tells them. */
export interface Advanced<S, B> {
  next: S;
  events: StoredEvent[];
  batch: B;
}

/**
 * The caller's allowance of games created or imported (the API's creation quota): what an append
 * creates is taken from it before the append, and given back when the append stores nothing.
 */
export interface CreationAllowance {
  /** Takes `games`, or throws the refusal (a RefereeError RATE_LIMITED, with its retryAfter). */
  take(games: number): void;
  giveBack(games: number): void;
}

/** One aggregate's part of the command path: how a decision is chained and how its events are stored. */
export interface StreamWriter<S, D, A extends Advanced<S, unknown>> {
  /** The stream after the decision, its events chained after `before`'s head. */
  advance(before: S, decision: D): A;
  /** The games the append stores besides the events (a tournament's pairing, an imported record). */
  created?(advanced: A): number;
  /** Stores the events at `before`'s version with what they cause, all or nothing; AppendConflict when another writer took that version. */
  append(before: S, advanced: A, decision: D): Promise<void>;
  /** Once stored, held and published: what this process does next about it (the command is answered once it is done). */
  afterStore?(before: S, advanced: A): void | Promise<void>;
}

/** One command on one stream, in its aggregate's terms. */
export interface StreamCommand<S, D, A, R> {
  /** The answer without deciding (a command id already stored: its retry), or null to decide. */
  replay?(state: S): Promise<R | null> | R | null;
  /** The decision on the stream as loaded (the core's, pure), or its refusal. */
  decide(state: S): Result<D>;
  accepted(advanced: A, decision: D): R;
  /** A refusal as answered (a move's is a typed answer); without it, thrown as a RefereeError. */
  refused?(code: string, message: string, state: S): R;
  /** The caller's allowance the games the append creates are charged to; without it, they are not charged (the referee's own steps). */
  allowance?: CreationAllowance;
}

/**
 * The command path every aggregate's commands take: gate (closed while draining for shutdown) →
 * the stream's queue → the stream as held, or read from its log → a command id already stored
 * answered as before → decide (pure) → chain → append at the expected version with what it
 * causes (the games it creates charged to the caller's allowance first) → hold → publish.
 * Nothing is acknowledged before it is stored. A refusal made from a
 * held stream the store was not asked about is confirmed against the stored version, and a lost
 * race (AppendConflict) is decided once more on fresh state, then refused as VERSION_CONFLICT.
 * The workflows' steps the publication sets off in this process are awaited (outside the
 * stream's queue) before the answer.
 */
export class StreamCommands<S extends StreamHead, B, D, A extends Advanced<S, B>> {
  constructor(
    private readonly gate: CommandGate,
    private readonly held: HeldStreams<S, B>,
    private readonly writer: StreamWriter<S, D, A>,
    /** The refusal of a command that lost its race twice. */
    private readonly conflict: string,
  ) {}

  run<R>(id: string, command: StreamCommand<S, D, A, R>): Promise<R> {
    return this.gate.run(() => this.execute(id, command));
  }

  /** The command path inside the gate (for a command that checked its input there first). */
  async execute<R>(id: string, command: StreamCommand<S, D, A, R>): Promise<R> {
    let reactions: Promise<void> | undefined;
    const refuse = (code: string, message: string, state: S): R => {
      if (command.refused) return command.refused(code, message, state);
      throw new RefereeError(code, message);
    };
    const answer = await this.held.lock.run(id, async () => {
      for (let attempt = 1; ; attempt++) {
        const trusted = this.held.trusted(id);
        const state = await this.held.get(id);
        const replayed = await command.replay?.(state);
        if (replayed !== null && replayed !== undefined) return replayed;
        const decided = command.decide(state);
        if (!decided.ok) {
          if (trusted && attempt === 1 && (await this.held.storedVersion(id)) !== state.version) {
            this.held.forget(id);
            continue;
          }
          return refuse(decided.error.code, decided.error.message, state);
        }
        const advanced = this.writer.advance(state, decided.value);
        if (advanced.events.length === 0) return command.accepted(advanced, decided.value);
        // Paid before storing (a refusal stores nothing), given back if nothing is stored.
        const games = command.allowance ? (this.writer.created?.(advanced) ?? 0) : 0;
        if (games > 0) command.allowance!.take(games);
        try {
          await this.writer.append(state, advanced, decided.value);
        } catch (err) {
          if (games > 0) command.allowance!.giveBack(games);
          this.held.forget(id);
          if (!(err instanceof AppendConflict)) throw err;
          if (attempt === 1) continue;
          return refuse('VERSION_CONFLICT', this.conflict, state);
        }
        reactions = this.held.publish(advanced.next, advanced.batch);
        await this.writer.afterStore?.(state, advanced);
        return command.accepted(advanced, decided.value);
      }
    });
    await reactions;
    return answer;
  }
}
