import fc from 'fast-check';
import { canonicalJson, sha256Hex } from '../../src/referee/core/canonical.js';
import { eventHash } from '../../src/referee/core/stream.js';

describe('RFC 8785 canonical JSON', () => {
  it('sorts keys by UTF-16 code units at every level and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: [{ d: true, c: null }, 'x'], é: 2, Z: undefined })).toBe('{"a":[{"c":null,"d":true},"x"],"b":1,"é":2}');
  });

  it('writes numbers as ECMAScript does, and refuses non-finite ones', () => {
    expect(canonicalJson([1e21, 1e-7, -0, 0.1 + 0.2])).toBe('[1e+21,1e-7,0,0.30000000000000004]');
    expect(() => canonicalJson(Number.NaN)).toThrow(/non-finite/);
  });

  it('parses back to the same value for any JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(JSON.parse(canonicalJson(v))).toEqual(JSON.parse(JSON.stringify(v)));
      }),
    );
  });
});

describe('event hashes', () => {
  it('hash the canonical JSON of the event after the previous hash, members missing or not', () => {
    const event = { seq: 3, type: 'DiceRolled', actor: null, moveId: null, bodyHash: null, payload: { chance: { values: [5, 0] } }, createdAt: '2026-11-30T12:00:00.000Z', prevHash: 'f'.repeat(64) };
    const body = { gameId: 'g', seq: 3, type: 'DiceRolled', actor: null, moveId: null, bodyHash: null, payload: event.payload, createdAt: event.createdAt };
    expect(eventHash('g', event)).toBe(sha256Hex(event.prevHash + canonicalJson(body)));
    const { actor: _, ...withoutActor } = event;
    const { actor: __, ...bodyWithoutActor } = body;
    expect(eventHash('g', withoutActor as typeof event)).toBe(sha256Hex(event.prevHash + canonicalJson(bodyWithoutActor)));
  });
});
