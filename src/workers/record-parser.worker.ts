import { parentPort } from 'node:worker_threads';
import type { ImportedRecord, Result } from '../engines/kit/index.js';
import { createRegistry } from '../games/index.js';
import type { Reply } from './record-parser.js';

/**
 * Entries sent back in one message: a long record's hundred thousand entries in one message are
 * one structured clone the service's thread decodes at once, for hundreds of milliseconds.
 */
const ENTRIES_PER_PART = 4096;

/** The record parser's thread: every shipped engine, parsing one record per message. */
const registry = createRegistry();
const reply = (message: Reply) => parentPort!.postMessage(message);
parentPort!.on('message', ({ id, kind, text }: { id: number; kind: string; text: string }) => {
  const engine = registry.get(kind);
  const result: Result<ImportedRecord> = engine?.importRecord ? engine.importRecord(text) : { ok: false, error: { code: 'INVALID_INPUT', message: `${kind} has no record format to import` } };
  if (!result.ok) return reply({ id, result });
  const { entries, labels } = result.value;
  for (let from = 0; from < entries.length; from += ENTRIES_PER_PART) {
    reply({ id, part: { entries: entries.slice(from, from + ENTRIES_PER_PART), labels: labels?.slice(from, from + ENTRIES_PER_PART) } });
  }
  reply({ id, result: { ok: true, value: { ...result.value, entries: [], labels: labels ? [] : undefined } } });
});
