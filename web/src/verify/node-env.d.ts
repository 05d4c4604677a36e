/**
 * The referee core names `Buffer` (a seed's bytes); the page's build injects web/src/verify/buffer.ts
 * for it and maps `node:crypto` to web/src/verify/node-crypto.ts (web/tsconfig.json's `paths` too).
 */
declare type Buffer = Uint8Array;
declare const Buffer: typeof import('./buffer.js').Buffer;
