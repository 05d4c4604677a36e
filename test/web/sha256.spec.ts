import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { createHash as pageHash, createHmac as pageHmac, hash as pageOneShot } from '../../web/src/verify/node-crypto.js';

/** The page's SHA-256 (the tournament badge's hashes, lots and dice) agrees with Node's, byte for byte. */
describe("the page's SHA-256", () => {
  it('hashes any text and any bytes as node:crypto does', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 300 }), fc.uint8Array({ maxLength: 300 })), (data) => {
        const expected = createHash('sha256').update(data).digest('hex');
        expect(pageOneShot('sha256', data, 'hex')).toBe(expected);
        expect(pageHash('sha256').update(data).digest('hex')).toBe(expected);
      }),
    );
  });

  it('computes HMAC-SHA-256 with keys of any length as node:crypto does, and reads its first word', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), fc.string({ maxLength: 200 }), (key, message) => {
        const expected = createHmac('sha256', key).update(message, 'utf8').digest();
        const mac = pageHmac('sha256', key).update(message, 'utf8').digest();
        expect(Buffer.from(mac).toString('hex')).toBe(expected.toString('hex'));
        expect(mac.readUInt32BE(0)).toBe(expected.readUInt32BE(0));
      }),
    );
  });
});
