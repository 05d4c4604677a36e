import { createHmac } from 'node:crypto';
import { hashOf, sha256Hex } from './canonical.js';

/**
 * Provably fair randomness. Each game has a secret 32-byte server seed; its SHA-256 (of the hex
 * string) is published when the game is created. Client seeds given by the seats before play
 * starts are mixed in as `mix = SHA-256(canonical JSON of the client seeds)`. The k-th HMAC is
 *   HMAC-SHA256(key = server seed hex, message = "<gameId>:<mix>:<k>")
 * and a uniform integer in [0, n) takes the first 4 bytes as a big-endian uint32 x, accepting
 * x < floor(2^32 / n) * n and answering x mod n; otherwise it tries the next k (rejection
 * sampling: no modulo bias). The counter runs over the whole game; every chance event records
 * the counters it used, so anyone can recompute it once the seed is revealed.
 */
export const seedCommitment = (serverSeed: string): string => sha256Hex(serverSeed);
export const clientSeedMix = (clientSeeds: readonly (string | null)[]): string => hashOf(clientSeeds);

const TWO_32 = 0x1_0000_0000;

export class FairSource {
  constructor(
    private readonly serverSeed: string,
    private readonly gameId: string,
    private readonly mix: string,
    /** Next HMAC counter to use. */
    public counter: number,
  ) {}

  uniform(n: number): number {
    if (!Number.isInteger(n) || n < 1 || n > TWO_32) throw new RangeError(`cannot draw from [0, ${n})`);
    const limit = TWO_32 - (TWO_32 % n);
    for (;;) {
      const mac = createHmac('sha256', this.serverSeed)
        .update(`${this.gameId}:${this.mix}:${this.counter++}`)
        .digest();
      const x = mac.readUInt32BE(0);
      if (x < limit) return x % n;
    }
  }

  draw(ranges: readonly number[]): { values: number[]; counter: [number, number] } {
    const start = this.counter;
    const values = ranges.map((n) => this.uniform(n));
    return { values, counter: [start, this.counter] };
  }
}
