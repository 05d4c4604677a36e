import { generateKeyPairSync, sign } from 'node:crypto';
import { jest } from '@jest/globals';
import { verifyEd25519 } from '../../web/src/verify/ed25519.js';

/**
 * The page's Ed25519 check of a checkpoint's signature: WebCrypto's where the browser has it,
 * @noble/ed25519's where it does not (here WebCrypto refusing the algorithm, as a browser without
 * Ed25519 does); both accept a node:crypto signature and refuse an altered one or another key's.
 */
const keyPair = () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, raw: publicKey.export({ format: 'der', type: 'spki' }).subarray(-32) };
};
const { privateKey, raw } = keyPair();
const other = keyPair().raw;
const message = Buffer.from('arbiter.test/log\n5\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n');
const signature = sign(null, message, privateKey);
const altered = Buffer.from(signature).fill(signature[0] ^ 1, 0, 1);

async function checks(by: string): Promise<void> {
  expect(await verifyEd25519(raw, signature, message)).toEqual({ ok: true, by });
  expect(await verifyEd25519(raw, altered, message)).toEqual({ ok: false, by });
  expect(await verifyEd25519(other, signature, message)).toEqual({ ok: false, by });
  expect(await verifyEd25519(raw, signature, Buffer.from(message).fill(0x31, 17, 18))).toEqual({ ok: false, by });
}

describe("the page's Ed25519 signature check", () => {
  afterEach(() => jest.restoreAllMocks());

  it('verifies with WebCrypto where it has Ed25519', () => checks('WebCrypto'));

  it('verifies with @noble/ed25519 where WebCrypto has no Ed25519', async () => {
    jest.spyOn(crypto.subtle, 'importKey').mockRejectedValue(new DOMException('Unrecognized name.', 'NotSupportedError'));
    await checks('@noble/ed25519');
  });
});
