/**
 * The `buffer` package's types, where the referee core relies on Node's: its subarray is a
 * Buffer (as at run time), and `equals` is typed for a Uint8Array as Node's is (in the page every
 * hash the core compares is a Buffer: node-crypto.ts's digests are).
 */
declare module 'buffer' {
  interface Buffer {
    subarray(start?: number, end?: number): Buffer;
    equals(other: Uint8Array): boolean;
  }
}
export {};
