import { createHash, createHmac } from 'node:crypto';

/**
 * Drawing of lots (L9.2-L9.3): every label names its own sequence of HMAC draws from the
 * tournament's secret seed, so that anyone can recompute each lot once the seed is revealed.
 *   mac = HMAC-SHA256(key = seed bytes, "arbiter/tournament-lots/v1|<tournamentId>|<label>|<c>")
 * The first 4 bytes, big-endian, are accepted below 2^32 - (2^32 mod k) (no modulo bias).
 */
export interface Lots {
  /** A uniform integer in [0, k). */
  uniform(label: string, k: number): number;
  /** Fisher-Yates under the label (the input order must be stated: by registrationNo). */
  shuffle<T>(label: string, items: readonly T[]): T[];
}

/** One lot as recorded in a LotsDrawn event (L9.5). */
export interface LotDrawn {
  label: string;
  /** `k` for a single draw, or the shuffled input (as registration numbers or ids). */
  k?: number;
  input?: (string | number)[];
  /** The drawn integer, or the shuffled list. */
  result: number | (string | number)[];
}

const TWO_32 = 0x1_0000_0000;

/** The lots of one tournament, with each label's counter continuing across calls. */
export class SeededLots implements Lots {
  private readonly counters = new Map<string, number>();
  private readonly key: Buffer;

  constructor(
    seedHex: string,
    private readonly tournamentId: string,
  ) {
    this.key = Buffer.from(seedHex, 'hex');
  }

  uniform(label: string, k: number): number {
    if (!Number.isInteger(k) || k < 1 || k > TWO_32) throw new RangeError(`cannot draw from [0, ${k})`);
    if (k === 1) return 0;
    const limit = TWO_32 - (TWO_32 % k);
    let c = this.counters.get(label) ?? 0;
    for (;;) {
      const mac = createHmac('sha256', this.key).update(`arbiter/tournament-lots/v1|${this.tournamentId}|${label}|${c}`, 'utf8').digest();
      c++;
      const x = mac.readUInt32BE(0);
      if (x < limit) {
        this.counters.set(label, c);
        return x % k;
      }
    }
  }

  shuffle<T>(label: string, items: readonly T[]): T[] {
    const a = [...items];
    for (let i = a.length - 1; i >= 1; i--) {
      const j = this.uniform(label, i + 1);
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  }
}

/** SHA-256 of the seed's bytes, lowercase hex: published at creation (L9.1). */
export const lotsCommitment = (seedHex: string): string => createHash('sha256').update(Buffer.from(seedHex, 'hex')).digest('hex');
