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
  /**
   * Stores several decisions at `before`'s version, each chained after the one before, as one
   * append with what each causes (group commit), all or nothing. A writer without it stores each
   * command by its own append.
   */
  appendTogether?(before: S, steps: readonly Chained<A, D>[]): Promise<void>;
}

/** A decision and its events chained after the stream as the decisions before it left it. */
export interface Chained<A, D> {
  advanced: A;
  decision: D;
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

/** A command queued on a stream, with its caller's answer. */
interface Waiting<S, D, A> {
  command: StreamCommand<S, D, A, unknown>;
  resolve(answer: unknown): void;
  reject(err: unknown): void;
}

/** Commands stored by one append at most (a group's statement stays small). */
const MAX_GROUP = 32;

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
 *
 * With a writer that stores decisions together, the commands that queued on a stream while its
 * append was under way are decided one after another on the stream as the one before left it,
 * and stored by one append (group commit): a stream's busy moment costs one round trip per group,
 * not per command. A group's answers are given once its append is stored; if it is not, each of
 * its commands takes the path alone.
 */
export class StreamCommands<S extends StreamHead, B, D, A extends Advanced<S, B>> {
  private readonly waiting = new Map<string, Waiting<S, D, A>[]>();

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
    if (!this.writer.appendTogether) {
      const { answer, reactions } = await this.held.lock.run(id, () => this.alone(id, command));
      await reactions;
      return answer;
    }
    return new Promise<R>((resolve, reject) => {
      const entry = { command, resolve, reject } as Waiting<S, D, A>;
      const queued = this.waiting.get(id);
      if (queued) queued.push(entry);
      else this.drainLater(id, [entry]);
    });
  }

  /** Takes the commands queued on `id` when the stream's queue reaches them (those queued meanwhile join them). */
  private drainLater(id: string, queued: Waiting<S, D, A>[]): void {
    this.waiting.set(id, queued);
    let group: Waiting<S, D, A>[] = [];
    this.held.lock
      .run(id, async () => {
        this.waiting.delete(id);
        group = queued.splice(0, MAX_GROUP);
        if (queued.length > 0) this.drainLater(id, queued);
        if (group.length === 1) return this.answerAlone(id, group[0]);
        await this.together(id, group);
      })
      // Whatever escaped is every command's answer (one answered already keeps its own).
      .catch((err: unknown) => {
        for (const w of group) w.reject(err);
      });
  }

  /** One command alone, answered once the workflows its publication set off are done. */
  private async answerAlone(id: string, w: Waiting<S, D, A>): Promise<void> {
    try {
      const { answer, reactions } = await this.alone(id, w.command);
      void Promise.resolve(reactions).then(() => w.resolve(answer), w.reject);
    } catch (err) {
      w.reject(err);
    }
  }

  /** One command's path, inside the stream's queue: its answer, and the workflows' steps its publication set off. */
  private async alone<R>(id: string, command: StreamCommand<S, D, A, R>): Promise<{ answer: R; reactions?: Promise<void> }> {
    for (let attempt = 1; ; attempt++) {
      const trusted = this.held.trusted(id);
      const state = await this.held.get(id);
      const decided = await this.decideOn(state, command);
      if ('answer' in decided) return { answer: decided.answer };
      if ('refused' in decided) {
        if (trusted && attempt === 1 && (await this.held.storedVersion(id)) !== state.version) {
          this.held.forget(id);
          continue;
        }
        return { answer: refusal(command, decided.refused, state) };
      }
      const { advanced, decision } = decided.step;
      try {
        await this.writer.append(state, advanced, decision);
      } catch (err) {
        if (decided.games > 0) command.allowance!.giveBack(decided.games);
        this.held.forget(id);
        if (!(err instanceof AppendConflict)) throw err;
        if (attempt === 1) continue;
        return { answer: refusal(command, { code: 'VERSION_CONFLICT', message: this.conflict }, state) };
      }
      const reactions = this.held.publish(advanced.next, advanced.batch);
      await this.writer.afterStore?.(state, advanced);
      return { answer: command.accepted(advanced, decision), reactions };
    }
  }

  /**
   * A command decided on `state`: its answer without storing anything (a replay, an acceptance
   * with no events), its refusal, or its events to store, with the games they create charged to
   * the caller's allowance (paid before storing, given back by the caller if nothing is stored).
   */
  private async decideOn<R>(state: S, command: StreamCommand<S, D, A, R>): Promise<{ answer: R } | { refused: { code: string; message: string } } | { step: Chained<A, D>; games: number }> {
    const replayed = await command.replay?.(state);
    if (replayed !== null && replayed !== undefined) return { answer: replayed };
    const decided = command.decide(state);
    if (!decided.ok) return { refused: decided.error };
    const advanced = this.writer.advance(state, decided.value);
    if (advanced.events.length === 0) return { answer: command.accepted(advanced, decided.value) };
    const games = command.allowance ? (this.writer.created?.(advanced) ?? 0) : 0;
    if (games > 0) command.allowance!.take(games);
    return { step: { advanced, decision: decided.value }, games };
  }

  /**
   * A group's commands decided one after another on the stream as read once (one held without
   * asking the store is confirmed first: a refusal then needs no confirming), stored by one
   * append, then each published and answered in order. A replay, a refusal or an accepted
   * command without events is answered once the group is stored (its answer may rest on a
   * decision before it). If the append is not stored, each command takes the path alone, except
   * that a failure other than a lost race is the answer of the commands whose events it held.
   */
  private async together(id: string, group: Waiting<S, D, A>[]): Promise<void> {
    let before: S;
    try {
      before = await this.held.get(id);
      if (this.held.trusted(id) && (await this.held.storedVersion(id)) !== before.version) {
        this.held.forget(id);
        before = await this.held.get(id);
      }
    } catch (err) {
      for (const w of group) w.reject(err);
      return;
    }
    let state = before;
    const answers: { w: Waiting<S, D, A>; answer: () => unknown }[] = [];
    const steps: (Chained<A, D> & { w: Waiting<S, D, A>; games: number })[] = [];
    for (const w of group) {
      const decidedOn = state;
      try {
        const decided = await this.decideOn(decidedOn, w.command);
        if ('step' in decided) {
          steps.push({ ...decided.step, w, games: decided.games });
          state = decided.step.advanced.next;
        } else if ('answer' in decided) answers.push({ w, answer: () => decided.answer });
        else answers.push({ w, answer: () => refusal(w.command, decided.refused, decidedOn) });
      } catch (err) {
        answers.push({
          w,
          answer: () => {
            throw err;
          },
        });
      }
    }
    if (steps.length > 0) {
      try {
        await this.writer.appendTogether!(before, steps);
      } catch (err) {
        for (const s of steps) if (s.games > 0) s.w.command.allowance!.giveBack(s.games);
        this.held.forget(id);
        const stored = new Set(steps.map((s) => s.w));
        for (const w of group) {
          if (stored.has(w) && !(err instanceof AppendConflict)) w.reject(err);
          else await this.answerAlone(id, w);
        }
        return;
      }
    }
    let previous = before;
    for (const { advanced, decision, w } of steps) {
      const reactions = this.held.publish(advanced.next, advanced.batch);
      try {
        await this.writer.afterStore?.(previous, advanced);
        const answer = w.command.accepted(advanced, decision);
        void reactions.then(() => w.resolve(answer), w.reject);
      } catch (err) {
        w.reject(err);
      }
      previous = advanced.next;
    }
    for (const { w, answer } of answers) {
      try {
        w.resolve(answer());
      } catch (err) {
        w.reject(err);
      }
    }
  }
}

/** A refusal as the command answers it (a move's is a typed answer), or thrown as a RefereeError. */
function refusal<S, R>(command: Pick<StreamCommand<S, unknown, unknown, R>, 'refused'>, { code, message }: { code: string; message: string }, state: S): R {
  if (command.refused) return command.refused(code, message, state);
  throw new RefereeError(code, message);
}
