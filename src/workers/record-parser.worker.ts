import { parentPort } from 'node:worker_threads';
import type { ImportedRecord, Result } from '../engines/kit/index.js';
import { createRegistry } from '../games/index.js';
import type { Ask, Reply } from './record-parser.js';

/**
 * Entries sent back in one message: a long record's hundred thousand entries in one message are
 * one structured clone the service's thread decodes at once, for hundreds of milliseconds.
 */
const ENTRIES_PER_PART = 4096;

/** Records parsed and not yet all sent, by request id: the next part goes when the service asks for it. */
const sending = new Map<number, { record: ImportedRecord; from: number }>();

/** The record parser's thread: every shipped engine, parsing one record per message. */
const registry = createRegistry();
const reply = (message: Reply) => parentPort!.postMessage(message);

/**
 * The next part of a parsed record, or, once all are sent, the record without its entries. One
 * part at a time, each when asked for: parts sent together would be decoded in one go (a thread's
 * messages waiting are all delivered in one turn of the event loop).
 */
function sendNext(id: number): void {
  const s = sending.get(id);
  if (!s) return;
  const { entries, labels } = s.record;
  if (s.from < entries.length) {
    reply({ id, part: { entries: entries.slice(s.from, s.from + ENTRIES_PER_PART), labels: labels?.slice(s.from, s.from + ENTRIES_PER_PART) } });
    s.from += ENTRIES_PER_PART;
    return;
  }
  sending.delete(id);
  reply({ id, result: { ok: true, value: { ...s.record, entries: [], labels: labels ? [] : undefined } } });
}

parentPort!.on('message', (ask: Ask) => {
  if ('next' in ask) return sendNext(ask.id);
  const { id, kind, text } = ask;
  const engine = registry.get(kind);
  const result: Result<ImportedRecord> = engine?.importRecord ? engine.importRecord(text) : { ok: false, error: { code: 'INVALID_INPUT', message: `${kind} has no record format to import` } };
  if (!result.ok) return reply({ id, result });
  sending.set(id, { record: result.value, from: 0 });
  sendNext(id);
});
