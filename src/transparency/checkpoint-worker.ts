import { Logger } from '@nestjs/common';
import { parseCheckpoint, type SigningKey, signCheckpoint } from '../referee/index.js';
import type { LogStore, Sequenced, StoredCheckpoint } from './log-store.js';
import type { Witnessing } from './witnesses.js';

/** Entries sequenced per transaction: a backlog (the first start after the migration) goes in several. */
const BATCH = 5000;

/**
 * Sequences the waiting entries (with the running heads that moved) and signs a checkpoint every
 * `intervalMs`, when the tree grew (and once at the first start, for the empty tree); then asks
 * the witnesses that have not cosigned the latest checkpoint (when this instance sequenced). Ticks run one at a time here, and the store's
 * lock keeps other instances' out of the same moment; the one that gets it does the work.
 *
 * A checkpoint is signed only with the key that signed the last one: an instance with another key
 * (a second instance that generated its own instead of sharing LOG_SIGNING_KEY) would otherwise
 * publish a log no monitor could follow. It says so and signs nothing.
 */
export class CheckpointWorker {
  private readonly logger = new Logger('TransparencyLog');
  private timer: NodeJS.Timeout | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private warnedKey = false;

  constructor(
    private readonly store: LogStore,
    private readonly key: SigningKey,
    private readonly origin: string,
    private readonly intervalMs: number,
    private readonly witnessing: Witnessing | null = null,
  ) {}

  start(): void {
    if (this.timer) return;
    void this.tick().catch((err) => this.failed(err));
    this.timer = setInterval(() => void this.tick().catch((err) => this.failed(err)), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.queue.catch(() => undefined);
  }

  /** Sequences everything waiting and signs the result (after the tick in progress); the last step's outcome, null if another instance held the sequencer. */
  tick(): Promise<Sequenced | null> {
    const next = this.queue
      .catch(() => undefined)
      .then(async () => {
        let step: Sequenced | null;
        do step = await this.store.sequence(BATCH, (size, root, last) => this.sign(size, root, last));
        while (step && step.added === BATCH);
        const latest = step && this.witnessing ? await this.store.checkpoint() : null;
        if (latest) await this.witnessing?.cosign(latest);
        return step;
      });
    this.queue = next;
    return next;
  }

  private sign(size: number, root: Buffer, last: StoredCheckpoint | null): string | null {
    const signer = last ? parseCheckpoint(last.note).signatures[0] : null;
    if (signer && !(signer.name === this.key.name && signer.keyId.equals(this.key.keyId))) {
      if (!this.warnedKey)
        this.logger.error(
          `the log's checkpoints are signed by the key ${signer.name} (${signer.keyId.toString('hex')}), not this instance's: give every instance the same LOG_SIGNING_KEY; this one signs none`,
        );
      this.warnedKey = true;
      return null;
    }
    return signCheckpoint({ origin: this.origin, size, root }, this.key);
  }

  private failed(err: unknown): void {
    this.logger.error(`a checkpoint failed: ${(err as Error).message}`);
  }
}
