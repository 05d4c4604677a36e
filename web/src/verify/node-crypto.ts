import { Buffer } from 'buffer';
import { bytesOf, hexOf, hmacSha256, sha256 } from './sha256.js';

/**
 * The part of `node:crypto` the referee core uses in the page (canonical.ts, fairness.ts,
 * tournament/lots.ts, tlog/), SHA-256 only, for the page's build (scripts/build-pages.mjs maps
 * `node:crypto` here). The page never signs and checks Ed25519 signatures with WebCrypto
 * (ed25519.ts), which is asynchronous: the core's key functions are not here.
 */
const digestOf = (bytes: Uint8Array): Buffer => Buffer.from(bytes);

class Hasher {
  private readonly parts: Uint8Array[] = [];
  constructor(private readonly finish: (data: Uint8Array) => Uint8Array) {}
  update(data: string | Uint8Array, _encoding?: 'utf8'): this {
    this.parts.push(bytesOf(data));
    return this;
  }
  digest(): Buffer;
  digest(encoding: 'hex'): string;
  digest(encoding?: 'hex'): Buffer | string {
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

/** Ed25519 keys and signatures: the page checks signatures with WebCrypto (ed25519.ts), never with these. */
export interface KeyObject {
  export(options: unknown): Buffer;
}
const notInThePage = (): never => {
  throw new Error("Ed25519 keys are not in the page's node:crypto: it verifies signatures with WebCrypto (web/src/verify/ed25519.ts)");
};
export const createPrivateKey = (_key: unknown): KeyObject => notInThePage();
export const createPublicKey = (_key: unknown): KeyObject => notInThePage();
export const sign = (_algorithm: null, _data: Uint8Array, _key: KeyObject): Buffer => notInThePage();
export const verify = (_algorithm: null, _data: Uint8Array, _key: KeyObject, _signature: Uint8Array): boolean => notInThePage();
