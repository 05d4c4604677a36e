import { bytesOf, hexOf, hmacSha256, sha256 } from './sha256.js';

/**
 * The part of `node:crypto` the referee core uses (canonical.ts, fairness.ts, tournament/lots.ts),
 * SHA-256 only, for the page's build (scripts/build-pages.mjs maps `node:crypto` here).
 */
interface Digest extends Uint8Array {
  readUInt32BE(offset: number): number;
}
const digestOf = (bytes: Uint8Array): Digest => Object.assign(bytes, { readUInt32BE: (offset: number) => new DataView(bytes.buffer, bytes.byteOffset).getUint32(offset) });

class Hasher {
  private readonly parts: Uint8Array[] = [];
  constructor(private readonly finish: (data: Uint8Array) => Uint8Array) {}
  update(data: string | Uint8Array, _encoding?: 'utf8'): this {
    this.parts.push(bytesOf(data));
    return this;
  }
  digest(): Digest;
  digest(encoding: 'hex'): string;
  digest(encoding?: 'hex'): Digest | string {
    const all = new Uint8Array(this.parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of this.parts) {
      all.set(p, at);
      at += p.length;
    }
    const out = this.finish(all);
    return encoding === 'hex' ? hexOf(out) : digestOf(out);
  }
}

const sha256Only = (algorithm: string): void => {
  if (algorithm !== 'sha256') throw new Error(`${algorithm}: only sha256 in the browser`);
};

export function hash(algorithm: string, data: string | Uint8Array, _encoding: 'hex'): string {
  sha256Only(algorithm);
  return hexOf(sha256(bytesOf(data)));
}
export function createHash(algorithm: string): Hasher {
  sha256Only(algorithm);
  return new Hasher(sha256);
}
export function createHmac(algorithm: string, key: string | Uint8Array): Hasher {
  sha256Only(algorithm);
  return new Hasher((data) => hmacSha256(bytesOf(key), data));
}
