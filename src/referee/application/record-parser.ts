import type { Engine, ImportedRecord, Result } from '../../engines/kit/index.js';

/**
 * Parses a game record in its community format. A long record is seconds of engine work, so the
 * host may parse off the event loop (src/workers/); the referee only awaits the entries.
 */
export abstract class RecordParser {
  abstract parse(engine: Engine, text: string): Promise<Result<ImportedRecord>>;
}

/** Parses in this thread (unit tests, engines no worker knows). */
export class InThreadRecordParser extends RecordParser {
  async parse(engine: Engine, text: string): Promise<Result<ImportedRecord>> {
    if (!engine.importRecord) return { ok: false, error: { code: 'INVALID_INPUT', message: `${engine.kind} has no record format to import` } };
    return engine.importRecord(text);
  }
}
