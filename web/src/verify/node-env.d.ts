/**
 * The referee core names `Buffer`: the page's build imports it from the `buffer` package into
 * each core module that does, and maps `node:crypto` to web/src/verify/node-crypto.ts
 * (scripts/build-pages.mjs; web/tsconfig.json's `paths` too).
 */
declare type Buffer = import('buffer').Buffer;
declare const Buffer: typeof import('buffer').Buffer;
