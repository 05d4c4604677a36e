import { Logger } from '@nestjs/common';
import { addCheckpointBody, cosignedAt, parseCheckpoint, parseCosignerKey, parseNote, TLOG_SIZE_TYPE, type VerifierKey } from '../referee/index.js';
import type { LogStore, StoredCheckpoint } from './log-store.js';

/** A witness the log asks to cosign its checkpoints: where it answers, and its key. */
export interface Witness {
  url: string;
  key: VerifierKey;
}

/** The consistency proof from tree size `from` to `to`. */
export type ConsistencyProver = (from: number, to: number) => Promise<Buffer[]>;

/** Reads LOG_WITNESSES' keys; a bad one stops the start, naming it. */
export const witnessesOf = (configured: readonly { url: string; key: string }[]): Witness[] =>
  configured.map(({ url, key }) => {
    try {
      return { url, key: parseCosignerKey(key) };
    } catch (err) {
      throw new Error(`LOG_WITNESSES: the key of ${url}: ${(err as Error).message}`);
    }
  });

/** How long a witness has to answer: a slow or absent one must not hold the next checkpoint back. */
const TIMEOUT_MS = 5000;

/**
 * The log's side of c2sp.org/tlog-witness: after a checkpoint, each witness that has not cosigned
 * the latest one is sent it (`POST <url>/add-checkpoint`) with a consistency proof from the size
 * it cosigned last (as stored here; a 409 says the witness's own, and the request is made once
 * more from there). A valid cosignature is stored, and served appended to the checkpoint. A
 * witness that is down, or refuses, only leaves that checkpoint without its cosignature: the log
 * signs on, and asks again at the next interval.
 */
export class Witnessing {
  private readonly logger = new Logger('TransparencyLog');

  constructor(
    private readonly store: LogStore,
    private readonly witnesses: readonly Witness[],
    private readonly prove: ConsistencyProver,
  ) {}

  /** Asks every witness that has not cosigned `latest` (the log's checkpoint as stored, with the cosignatures it has). */
  async cosign(latest: StoredCheckpoint): Promise<void> {
    const checkpoint = parseCheckpoint(latest.note);
    const missing = this.witnesses.filter((w) => cosignedAt(checkpoint, w.key) === null);
    if (missing.length === 0) return;
    // The log's own note, without the other witnesses' lines: the witness checks the log's signature only.
    const own = `${checkpoint.body}\n${latest.note.slice(checkpoint.body.length + 1).split('\n')[0]}\n`;
    await Promise.all(
      missing.map((w) => this.ask(w, latest.size, own).catch((err: Error) => this.logger.warn(`the witness ${w.key.name} (${w.url}) did not cosign checkpoint ${latest.size}: ${err.message}`))),
    );
  }

  private async ask(witness: Witness, size: number, note: string): Promise<void> {
    let old = (await this.store.lastCosigned(witness.key)) ?? 0;
    for (let attempt = 0; ; attempt++) {
      if (old > size) throw new Error(`it has cosigned a larger tree (${old}) than the log's latest (${size})`);
      const res = await fetch(`${witness.url}/add-checkpoint`, {
        method: 'POST',
        body: addCheckpointBody({ oldSize: old, proof: old === 0 || old === size ? [] : await this.prove(old, size), checkpoint: note }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const text = await res.text();
      if (res.status === 409 && attempt === 0 && res.headers.get('content-type')?.startsWith(TLOG_SIZE_TYPE) && /^\d+\n$/.test(text)) {
        old = Number(text);
        continue;
      }
      if (res.status !== 200) throw new Error(`it answered ${res.status}: ${text.trim().slice(0, 300)}`);
      const lines = text.split('\n').filter((l) => l !== '');
      const line = lines.find((l) => cosignedAt(parseNote(`${note}${l}\n`), witness.key) !== null);
      if (!line) throw new Error('its answer holds no valid cosignature by its key');
      await this.store.addCosignature(size, witness.key, `${line}\n`);
      return;
    }
  }
}
