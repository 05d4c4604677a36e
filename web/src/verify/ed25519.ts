/** Who checked a signature: the browser's own WebCrypto, or @noble/ed25519 where it has no Ed25519. */
export type Ed25519Verifier = 'WebCrypto' | '@noble/ed25519';

/**
 * Does `signature` sign `message` under the Ed25519 `publicKey` (32 bytes)? With WebCrypto's
 * Ed25519 (Chrome 137, Firefox 129, Safari 17); a browser without it gets @noble/ed25519 (audited,
 * 5 kB), a chunk loaded only then, in RFC 8032's strict mode, as WebCrypto and node:crypto verify.
 */
export async function verifyEd25519(publicKey: Uint8Array, signature: Uint8Array, message: Uint8Array): Promise<{ ok: boolean; by: Ed25519Verifier }> {
  const [key, sig, data] = [publicKey, signature, message].map((b) => Uint8Array.from(b));
  let imported: CryptoKey | null = null;
  try {
    imported = await crypto.subtle.importKey('raw', key, { name: 'Ed25519' }, false, ['verify']);
  } catch (err) {
    // A browser without Ed25519 refuses the algorithm; a key that is not a curve point is refused too, and fails below.
    if ((err as Error).name !== 'NotSupportedError') return { ok: false, by: 'WebCrypto' };
  }
  if (imported) return { ok: await crypto.subtle.verify({ name: 'Ed25519' }, imported, sig, data), by: 'WebCrypto' };
  const { verifyAsync } = await import('@noble/ed25519');
  return { ok: await verifyAsync(sig, data, key, { zip215: false }).catch(() => false), by: '@noble/ed25519' };
}
