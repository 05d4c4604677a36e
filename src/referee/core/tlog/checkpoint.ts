import { createHash, createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';

/**
 * Signed checkpoints in the C2SP formats (c2sp.org/tlog-checkpoint, c2sp.org/signed-note):
 *
 *     <origin>\n<tree size>\n<base64 root hash>\n
 *     \n
 *     — <key name> <base64(key id || Ed25519 signature)>\n
 *
 * The signature covers the text before the blank line. An Ed25519 key's id is
 * SHA-256(name || 0x0A || 0x01 || public key)[:4]; its verifier key is written
 * `<name>+<hex key id>+<base64(0x01 || public key)>`, and its signer key
 * `PRIVATE+KEY+<name>+<hex key id>+<base64(0x01 || seed)>` (as golang.org/x/mod/sumdb/note
 * writes both, so its tools read ours).
 */

const ED25519 = 0x01;
/** PKCS #8 for an Ed25519 seed (RFC 8410): this prefix, then the 32 bytes. */
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const DASH = '\u2014 ';

export interface Checkpoint {
  origin: string;
  size: number;
  root: Buffer;
}

/** A log's signing key: its name, its id, the private key and the public key's 32 bytes. */
export interface SigningKey {
  name: string;
  keyId: Buffer;
  privateKey: KeyObject;
  publicKey: Buffer;
}

/** A verifier's key, read from its text form. */
export interface VerifierKey {
  name: string;
  keyId: Buffer;
  publicKey: Buffer;
}

/** A key name: printable, no space and no `+` (signed-note). */
export const isKeyName = (name: string) => /^[\x21-\x2a\x2c-\x7e]+$/.test(name);

/** SHA-256(name || 0x0A || type || public key)[:4]: type 0x01 for a note signer, 0x04 for a cosigner (tlog-cosignature). */
export function keyIdOf(name: string, publicKey: Buffer, type = ED25519): Buffer {
  return createHash('sha256')
    .update(Buffer.concat([Buffer.from(`${name}\n`), Buffer.from([type]), publicKey]))
    .digest()
    .subarray(0, 4);
}

/** A signing key from its 32-byte seed. */
export function signingKeyOf(name: string, seed: Buffer): SigningKey {
  if (!isKeyName(name)) throw new Error(`a key name is printable ASCII without spaces or "+", not "${name}"`);
  if (seed.length !== 32) throw new Error('an Ed25519 seed is 32 bytes');
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const publicKey = createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).subarray(-32);
  return { name, keyId: keyIdOf(name, publicKey), privateKey, publicKey };
}

/** `PRIVATE+KEY+name+keyid+base64(0x01 || seed)`. */
export function signerKeyText(name: string, seed: Buffer): string {
  const key = signingKeyOf(name, seed);
  return `PRIVATE+KEY+${name}+${key.keyId.toString('hex')}+${Buffer.concat([Buffer.from([ED25519]), seed]).toString('base64')}`;
}

/** Reads a signer key's text form; throws saying what is wrong. */
export function parseSignerKey(text: string): SigningKey {
  // The base64 key may hold `+` itself: the name and the id are cut off the front.
  const m = /^PRIVATE\+KEY\+([^+\s]+)\+([0-9a-f]{8})\+(\S+)$/.exec(text.trim());
  if (!m) throw new Error('a signer key reads PRIVATE+KEY+<name>+<key id>+<base64 key>');
  const [, name, id, b64] = m;
  const raw = Buffer.from(b64, 'base64');
  if (raw.length !== 33 || raw[0] !== ED25519) throw new Error('the signer key is not an Ed25519 key');
  const key = signingKeyOf(name, raw.subarray(1));
  if (key.keyId.toString('hex') !== id) throw new Error("the signer key's id does not match its key");
  return key;
}

/** `name+keyid+base64(0x01 || public key)`. */
export function verifierKeyText(key: Pick<SigningKey, 'name' | 'keyId' | 'publicKey'>): string {
  return `${key.name}+${key.keyId.toString('hex')}+${Buffer.concat([Buffer.from([ED25519]), key.publicKey]).toString('base64')}`;
}

/** Reads a verifier key; throws saying what is wrong. */
export const parseVerifierKey = (text: string): VerifierKey => readVerifierKey(text, ED25519);

/** Reads a verifier key of signature type `type` (its first byte; the key id is derived with it); throws saying what is wrong. */
export function readVerifierKey(text: string, type: number): VerifierKey {
  const m = /^([^+\s]+)\+([0-9a-f]{8})\+(\S+)$/.exec(text.trim());
  if (!m || !isKeyName(m[1])) throw new Error('a verifier key reads <name>+<key id>+<base64 key>');
  const [, name, id, b64] = m;
  const raw = Buffer.from(b64, 'base64');
  if (raw.length !== 33 || raw[0] !== type) throw new Error(`the verifier key is not an Ed25519 key of type 0x0${type}`);
  const publicKey = raw.subarray(1);
  const keyId = keyIdOf(name, publicKey, type);
  if (keyId.toString('hex') !== id) throw new Error("the verifier key's id does not match its key");
  return { name, keyId, publicKey };
}

/** The checkpoint's body: the signed text. */
export function checkpointBody({ origin, size, root }: Checkpoint): string {
  return `${origin}\n${size}\n${root.toString('base64')}\n`;
}

/** A signed note of `body` (text ending in a newline), signed by `key`. */
export function signNote(body: string, key: SigningKey): string {
  const signature = sign(null, Buffer.from(body), key.privateKey);
  return `${body}\n${DASH}${key.name} ${Buffer.concat([key.keyId, signature]).toString('base64')}\n`;
}

/** The checkpoint as a signed note, signed by `key`. */
export const signCheckpoint = (checkpoint: Checkpoint, key: SigningKey): string => signNote(checkpointBody(checkpoint), key);

/** A signed note read: its text and its signature lines (name, key id, signature). */
export interface SignedNote {
  body: string;
  signatures: { name: string; keyId: Buffer; signature: Buffer }[];
}

export type SignedCheckpoint = Checkpoint & SignedNote;

/** Reads a signed note; throws saying what is malformed. */
export function parseNote(note: string): SignedNote {
  const split = note.indexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) throw new Error('a signed note is its text, a blank line and signature lines, each ending in a newline');
  const signatures = note
    .slice(split + 2, -1)
    .split('\n')
    .map((line) => {
      const m = /^\u2014 (\S+) ([A-Za-z0-9+/=]+)$/.exec(line);
      const raw = m ? Buffer.from(m[2], 'base64') : Buffer.alloc(0);
      if (!m || raw.length < 5) throw new Error(`not a signature line: ${JSON.stringify(line)}`);
      return { name: m[1], keyId: raw.subarray(0, 4), signature: raw.subarray(4) };
    });
  return { body: note.slice(0, split + 1), signatures };
}

/** Reads a signed checkpoint; throws saying what is malformed. */
export function parseCheckpoint(note: string): SignedCheckpoint {
  const signed = parseNote(note);
  const lines = signed.body.split('\n');
  const [origin, sizeText, rootText] = lines;
  if (lines.length < 4 || !origin || !/^(0|[1-9]\d*)$/.test(sizeText ?? '')) throw new Error('a checkpoint reads its origin, its tree size and its root hash, one a line');
  const root = Buffer.from(rootText, 'base64');
  if (root.length !== 32 || root.toString('base64') !== rootText) throw new Error("the checkpoint's root hash is not 32 bytes of base64");
  const size = Number(sizeText);
  if (!Number.isSafeInteger(size)) throw new Error("the checkpoint's tree size is too large");
  return { origin, size, root, ...signed };
}

/** The note's Ed25519 signatures that claim to be by `key` (its name and id): one of them must verify. */
export const signaturesBy = (note: SignedNote, key: VerifierKey): Buffer[] =>
  note.signatures.filter((s) => s.name === key.name && s.keyId.equals(key.keyId) && s.signature.length === 64).map((s) => s.signature);

/** Is the note signed by `key` (a signature line of its name and id that verifies)? */
export function signedBy(checkpoint: SignedNote, key: VerifierKey): boolean {
  const publicKey = ed25519PublicKey(key.publicKey);
  return signaturesBy(checkpoint, key).some((signature) => verify(null, Buffer.from(checkpoint.body), publicKey, signature));
}

/** The Ed25519 public key of these 32 bytes, for node:crypto's verify. */
export const ed25519PublicKey = (raw: Buffer): KeyObject => createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
