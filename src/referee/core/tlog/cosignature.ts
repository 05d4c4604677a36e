import { sign, verify } from 'node:crypto';
import { ed25519PublicKey, keyIdOf, readVerifierKey, type SignedNote, type SigningKey, type VerifierKey } from './checkpoint.js';

/**
 * Witness cosignatures (c2sp.org/tlog-cosignature, Ed25519 `cosignature/v1`): a note signature
 * line `— <witness name> base64(key id || u64 time || Ed25519 signature)` over
 *
 *     cosignature/v1\ntime <unix seconds>\n<the checkpoint's body>
 *
 * A cosigner's key id is SHA-256(name || 0x0A || 0x04 || public key)[:4]: the type byte 0x04
 * keeps it apart from the same key signing plain notes (0x01). A witness's key is kept as a note
 * signer key (`PRIVATE+KEY+…`, type 0x01, as transparency-dev's witness keeps its own) and
 * published as a verifier key of type 0x04 (`<name>+<id>+base64(0x04 || key)`).
 */
export const COSIGNATURE_V1 = 0x04;
const DASH = '\u2014 ';

/** The cosigning form of a note signer key: the same key, its id derived with type 0x04. */
export const cosignerOf = (key: SigningKey): SigningKey => ({ ...key, keyId: keyIdOf(key.name, key.publicKey, COSIGNATURE_V1) });

/** `<name>+<key id>+base64(0x04 || public key)`: the key a verifier is given for a witness. */
export const cosignerKeyText = (key: Pick<SigningKey, 'name' | 'publicKey'>): string =>
  `${key.name}+${keyIdOf(key.name, key.publicKey, COSIGNATURE_V1).toString('hex')}+${Buffer.concat([Buffer.from([COSIGNATURE_V1]), key.publicKey]).toString('base64')}`;

/** Reads a witness's verifier key: type 0x04, or a plain note key (0x01) taken as the same key cosigning; throws saying what is wrong. */
export function parseCosignerKey(text: string): VerifierKey {
  const type = Buffer.from(text.trim().split('+')[2] ?? '', 'base64')[0];
  const key = readVerifierKey(text, type === COSIGNATURE_V1 ? COSIGNATURE_V1 : 0x01);
  return { ...key, keyId: keyIdOf(key.name, key.publicKey, COSIGNATURE_V1) };
}

/** The bytes a cosignature signs: the header line, the time line and the note's whole body. */
export const cosignedMessage = (body: string, time: number): Buffer => Buffer.from(`cosignature/v1\ntime ${time}\n${body}`);

/** `cosigner`'s cosignature line (ending in a newline) on the note whose body is `body`, at `time` (unix seconds). */
export function cosign(body: string, cosigner: SigningKey, time: number): string {
  if (!Number.isSafeInteger(time) || time < 0) throw new Error(`a cosignature's time is whole seconds, not ${time}`);
  const stamp = Buffer.alloc(8);
  stamp.writeUInt32BE(Math.floor(time / 2 ** 32), 0);
  stamp.writeUInt32BE(time % 2 ** 32, 4);
  const signature = sign(null, cosignedMessage(body, time), cosigner.privateKey);
  return `${DASH}${cosigner.name} ${Buffer.concat([cosigner.keyId, stamp, signature]).toString('base64')}\n`;
}

/** The time of a signature that is a `cosignature/v1` (u64 big-endian, then 64 bytes), or null (also past 2^53, far beyond any clock). */
export function cosignatureTime(signature: Buffer): number | null {
  if (signature.length !== 72) return null;
  const high = signature.readUInt32BE(0);
  return high < 2 ** 21 ? high * 2 ** 32 + signature.readUInt32BE(4) : null;
}

/** The time of `key`'s valid cosignature on the note, or null if it has none. */
export function cosignedAt(note: SignedNote, key: VerifierKey): number | null {
  for (const s of note.signatures) {
    const time = s.name === key.name && s.keyId.equals(key.keyId) ? cosignatureTime(s.signature) : null;
    if (time !== null && verify(null, cosignedMessage(note.body, time), ed25519PublicKey(key.publicKey), s.signature.subarray(8))) return time;
  }
  return null;
}

/** Which witnesses a verifier requires: their keys, and how many of them must have cosigned. */
export interface WitnessPolicy {
  keys: VerifierKey[];
  quorum: number;
}

/** Reads `--witness-key` (repeated) and `--quorum` (default: every witness given); throws saying what is wrong. */
export function witnessPolicy(keys: readonly string[], quorum?: string): WitnessPolicy {
  const parsed = keys.map((k) => {
    try {
      return parseCosignerKey(k);
    } catch (err) {
      throw new Error(`the witness key ${k}: ${(err as Error).message}`);
    }
  });
  const n = quorum === undefined ? parsed.length : Number(quorum);
  if (!Number.isInteger(n) || n < 0 || n > parsed.length) throw new Error(`the quorum is a whole number from 0 to the ${parsed.length} witness keys given, not ${quorum}`);
  return { keys: parsed, quorum: n };
}

/** Does the checkpoint carry the cosignatures the policy requires? `problem` says which are missing. */
export function checkCosignatures(note: SignedNote & { size: number }, policy: WitnessPolicy): { ok: boolean; cosigners: string[]; problem: string | null } {
  const cosigners = policy.keys.filter((k) => cosignedAt(note, k) !== null).map((k) => k.name);
  if (cosigners.length >= policy.quorum) return { ok: true, cosigners, problem: null };
  const missing = policy.keys.map((k) => k.name).filter((n) => !cosigners.includes(n));
  return {
    ok: false,
    cosigners,
    problem:
      `its checkpoint (size ${note.size}) is cosigned by ${cosigners.length} of the ${policy.keys.length} witnesses given, ${policy.quorum} required ` +
      `(no valid cosignature of ${missing.join(', ')}): without them nothing shows that others were served the same log (a split view); fetch it again once the witnesses have cosigned`,
  };
}
