/**
 * SHA-256 and HMAC-SHA-256, synchronous, from @noble/hashes: the referee core hashes while it
 * folds a stream, and the browser's SubtleCrypto is asynchronous only. The page's build maps the
 * core's `node:crypto` onto node-crypto.ts, built on these (scripts/build-pages.mjs), so the
 * tournament badge runs the project's own verifier unchanged.
 */
import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';

export { sha256 };
export const hmacSha256 = (key: Uint8Array, message: Uint8Array): Uint8Array => hmac(sha256, key, message);
export const bytesOf = (data: string | Uint8Array): Uint8Array => (typeof data === 'string' ? utf8ToBytes(data) : data);
export const hexOf = bytesToHex;
