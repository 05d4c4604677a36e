import fc from 'fast-check';
import { canonicalJson } from '../../src/referee/core/canonical.js';

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
