import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CONFIG, type Config } from '../config/config.js';
import { consistencyRanges, entryBytes, hashRanges, inclusionRanges, nodesNeeded, type Range, RefereeError, type SigningKey, type StreamKind, verifierKeyText } from '../referee/index.js';
import { CheckpointWorker } from './checkpoint-worker.js';
import { LogStore, type Sequenced, type StoredCheckpoint, type StoredEntry } from './log-store.js';
import { loadSigningKey } from './signing-key.js';
import { Witnessing, witnessesOf } from './witnesses.js';

/** A leaf's proof of inclusion against a tree size (and the checkpoint signed at that size, when there is one). */
export interface InclusionProof {
  /** The entry, as the JSON whose RFC 8785 bytes are the leaf (docs/transparency.md). */
  entry: Record<string, unknown>;
  leafIndex: number;
  treeSize: number;
  /** RFC 9162 §2.1.3 audit path, leaf side first, each hash in base64. */
  inclusionProof: string[];
  checkpoint: string | null;
}

/** What a bundle carries of the log: where its entry is, the proof and the signed checkpoint it was proven against. */
export interface BundleLogProof {
  /** A running stream's bundle: the seq of its latest logged head (the entry is that event's head); absent for a final head. */
  seq?: number;
  leafIndex: number;
  treeSize: number;
  inclusionProof: string[];
  checkpoint: string;
}

const base64 = (hs: readonly Buffer[]) => hs.map((h) => h.toString('base64'));

/**
 * The transparency log (docs/transparency.md): its checkpoint worker and the reads a verifier or
 * a monitor needs (checkpoints, inclusion and consistency proofs, the public key). Reads only
 * read: proofs are folded from the stored perfect subtrees.
 */
@Injectable()
export class TransparencyLog implements OnApplicationBootstrap, OnModuleDestroy {
  readonly key: SigningKey;
  private readonly worker: CheckpointWorker;

  constructor(
    private readonly store: LogStore,
    @Inject(CONFIG) private readonly config: Config,
  ) {
    this.key = loadSigningKey(config);
    const witnesses = witnessesOf(config.logWitnesses);
    const witnessing = witnesses.length > 0 ? new Witnessing(store, witnesses, (from, to) => this.consistencyHashes(from, to)) : null;
    this.worker = new CheckpointWorker(store, this.key, config.logOrigin, config.logCheckpointMs, witnessing);
  }

  onApplicationBootstrap(): void {
    if (this.config.backgroundWork) this.worker.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker.stop();
  }

  /** Sequences what waits and signs a checkpoint now (tests, and the worker's own ticks). */
  checkpointNow(): Promise<Sequenced | null> {
    return this.worker.tick();
  }

  /** The log's public key in the verifier key form `<name>+<key id>+<base64 key>`. */
  verifierKey(): string {
    return verifierKeyText(this.key);
  }

  /** The latest signed checkpoint, or the one signed at `size`. */
  async checkpoint(size?: number): Promise<StoredCheckpoint> {
    const found = await this.store.checkpoint(size);
    if (!found) throw new RefereeError('NOT_FOUND', size === undefined ? 'the log has signed no checkpoint yet' : `the log signed no checkpoint of size ${size}`);
    return found;
  }

  /** The inclusion proof of a game's or tournament's entry, or of the entry at a leaf index, against tree size `size` (default: the latest checkpoint's). */
  async inclusion(of: { kind: StreamKind; id: string } | { leafIndex: number }, size?: number): Promise<InclusionProof> {
    const entry = 'leafIndex' in of ? await this.store.entryAt(of.leafIndex) : await this.store.entry(of.kind, of.id);
    const what = 'leafIndex' in of ? `leaf ${of.leafIndex}` : `the ${of.kind} ${of.id}`;
    if (!entry) throw new RefereeError('NOT_FOUND', `the log has no entry for ${what}${'leafIndex' in of ? '' : ' (it is not finished)'}`);
    const latest = size === undefined ? await this.checkpoint() : null;
    const treeSize = size ?? latest!.size;
    if (entry.leafIndex === null || entry.leafIndex >= treeSize) {
      throw new RefereeError('NOT_IN_LOG_YET', `${what} is not in the log at size ${treeSize} yet: its entry is added at the next checkpoint`);
    }
    await this.checkSize(treeSize);
    return {
      entry: JSON.parse(entryBytes(entry).toString('utf8')),
      leafIndex: entry.leafIndex,
      treeSize,
      inclusionProof: base64(await this.hashes(inclusionRanges(entry.leafIndex, treeSize))),
      checkpoint: latest?.note ?? (await this.store.checkpoint(treeSize))?.note ?? null,
    };
  }

  /** RFC 9162 §2.1.4 consistency proof from tree size `from` to `to`, base64. */
  async consistency(from: number, to: number): Promise<string[]> {
    if (from > to) throw new RefereeError('INVALID_INPUT', `a consistency proof goes from a smaller tree to a larger one, not from ${from} to ${to}`);
    await this.checkSize(to);
    return base64(await this.consistencyHashes(from, to));
  }

  private consistencyHashes(from: number, to: number): Promise<Buffer[]> {
    return this.hashes(consistencyRanges(from, to));
  }

  /**
   * A stream's proof against the latest checkpoint, for its bundle ending at `headSeq`: a finished
   * stream's final entry (null while it waits for its first checkpoint), a running one's latest
   * logged head up to `headSeq` (null before the first).
   */
  async bundleProof(kind: StreamKind, id: string, headSeq: number): Promise<BundleLogProof | null> {
    const [final, latest] = await Promise.all([this.store.entry(kind, id), this.store.checkpoint()]);
    if (!latest) return null;
    const entry = final ?? (await this.store.runningEntry(kind, id, headSeq, latest.size));
    if (!entry || entry.leafIndex === null || entry.leafIndex >= latest.size) return null;
    return {
      ...(final ? {} : { seq: entry.seq }),
      leafIndex: entry.leafIndex,
      treeSize: latest.size,
      inclusionProof: base64(await this.hashes(inclusionRanges(entry.leafIndex, latest.size))),
      checkpoint: latest.note,
    };
  }

  /** `bundle` with its stream's log proof (`log`), when a checkpoint holds its final entry or, running, one of its heads. */
  async withProof<B extends { events: readonly { seq: number }[] }>(kind: StreamKind, id: string, bundle: B): Promise<B | (B & { log: BundleLogProof })> {
    const log = await this.bundleProof(kind, id, bundle.events.at(-1)?.seq ?? 0);
    return log ? { ...bundle, log } : bundle;
  }

  /** The entry as stored (tests and the tamper checks read it). */
  entry(kind: StreamKind, id: string): Promise<StoredEntry | null> {
    return this.store.entry(kind, id);
  }

  private async checkSize(size: number): Promise<void> {
    const now = await this.store.size();
    if (size > now) throw new RefereeError('INVALID_INPUT', `the log has ${now} leaves, not ${size}`);
  }

  private async hashes(ranges: readonly Range[]): Promise<Buffer[]> {
    return hashRanges(ranges, await this.store.nodes(nodesNeeded(ranges)));
  }
}
