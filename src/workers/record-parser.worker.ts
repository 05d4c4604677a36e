import { parentPort } from 'node:worker_threads';
import { createRegistry } from '../games/index.js';

/** The record parser's thread: every shipped engine, parsing one record per message. */
const registry = createRegistry();
parentPort!.on('message', ({ id, kind, text }: { id: number; kind: string; text: string }) => {
  const engine = registry.get(kind);
  const result = engine?.importRecord ? engine.importRecord(text) : { ok: false, error: { code: 'INVALID_INPUT', message: `${kind} has no record format to import` } };
  parentPort!.postMessage({ id, result });
});
