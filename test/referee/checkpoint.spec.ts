import { generateKeyPairSync, randomBytes } from 'node:crypto';
import {
  checkpointBody,
  parseCheckpoint,
  parseNote,
  parseSignerKey,
  parseVerifierKey,
  signCheckpoint,
  signedBy,
  signerKeyText,
  signingKeyOf,
  signNote,
  verifierKeyText,
} from '../../src/referee/core/tlog/checkpoint.js';

/**
 * Signed checkpoints in the C2SP signed-note format, checked against the example key and note of
 * golang.org/x/mod/sumdb/note (its documentation and tests): our key ids, key texts and
 * signatures must be the ones Go's tools read and write.
 */
const GO_VERIFIER = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const GO_SIGNER = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
const GO_TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const GO_NOTE = `${GO_TEXT}\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`;

describe('signed notes and checkpoints (C2SP signed-note, tlog-checkpoint)', () => {
  it("reads Go's signer key, derives its verifier key and key id, and signs its note byte for byte", () => {
    const key = parseSignerKey(GO_SIGNER);
    expect(verifierKeyText(key)).toBe(GO_VERIFIER);
    expect(key.keyId.toString('hex')).toBe('c74f20a3');
    expect(signNote(GO_TEXT, key)).toBe(GO_NOTE);
    expect(signedBy(parseNote(GO_NOTE), parseVerifierKey(GO_VERIFIER))).toBe(true);
  });

  it('a checkpoint signed with the log key verifies with its published key and fails with another, or once changed', () => {
    const seed = randomBytes(32);
    const key = signingKeyOf('arbiter.example/log', seed);
    expect(parseSignerKey(signerKeyText('arbiter.example/log', seed)).publicKey).toEqual(key.publicKey);
    const note = signCheckpoint({ origin: 'arbiter.example/log', size: 12, root: Buffer.alloc(32, 7) }, key);
    expect(note.startsWith(`arbiter.example/log\n12\n${Buffer.alloc(32, 7).toString('base64')}\n\n\u2014 arbiter.example/log `)).toBe(true);
    const read = parseCheckpoint(note);
    expect(read.size).toBe(12);
    expect(read.body).toBe(checkpointBody(read));
    expect(signedBy(read, parseVerifierKey(verifierKeyText(key)))).toBe(true);
    const other = signingKeyOf('arbiter.example/log', randomBytes(32));
    expect(signedBy(read, parseVerifierKey(verifierKeyText(other)))).toBe(false);
    expect(signedBy(parseCheckpoint(note.replace('\n12\n', '\n13\n')), parseVerifierKey(verifierKeyText(key)))).toBe(false);
  });

  it('refuses malformed keys and notes, saying why', () => {
    expect(() => parseVerifierKey(GO_VERIFIER.replace('c74f20a3', 'c74f20a4'))).toThrow(/id does not match/);
    const { publicKey } = generateKeyPairSync('ed25519');
    expect(() => parseVerifierKey(`x+00000000+${publicKey.export({ format: 'der', type: 'spki' }).toString('base64')}`)).toThrow(/not an Ed25519 key/);
    expect(() => parseCheckpoint('origin\n1\nAAAA\n\n\u2014 k AAAAAAA=\n')).toThrow(/root hash/);
    expect(() => parseCheckpoint('origin\n1\n')).toThrow(/blank line/);
  });
});
