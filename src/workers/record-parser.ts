import { Logger, type OnModuleDestroy } from '@nestjs/common';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Engine, ImportedRecord, Result } from '../engines/kit/index.js';
import { ENGINES } from '../games/index.js';
import { InThreadRecordParser, RecordParser } from '../referee/index.js';

/** What the service asks of the worker: a record parsed, or the next part of one. */
export type Ask = { id: number; kind: string; text: string } | { id: number; next: true };

/**
 * The worker's messages about a record: its entries (and their labels) in parts, each sent when
 * the service asks for the next, then the parsed record without them, or why it is not one.
 */
export type Reply = { id: number; part: Pick<ImportedRecord, 'entries' | 'labels'> } | { id: number; result: Result<ImportedRecord> };

/**
 * Parses records of the shipped games on a worker thread, so a long import does not stall other
 * requests. Engines the worker does not have (a test's) and runs without the compiled worker
 * (under ts-jest) parse in this thread.
 */
export class WorkerRecordParser extends RecordParser implements OnModuleDestroy {
  private readonly logger = new Logger('Records');
  private readonly inThread = new InThreadRecordParser();
  private readonly waiting = new Map<number, { resolve: (reply: Result<ImportedRecord>) => void; entries: ImportedRecord['entries']; labels: string[] }>();
  private worker: Worker | null = null;
  private nextId = 0;

  constructor(private readonly script: URL = new URL('./record-parser.worker.js', import.meta.url)) {
    super();
  }

  parse(engine: Engine, text: string): Promise<Result<ImportedRecord>> {
    const shipped = ENGINES.some((e) => e.kind === engine.kind);
    if (!shipped || !existsSync(fileURLToPath(this.script))) return this.inThread.parse(engine, text);
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, { resolve, entries: [], labels: [] });
      worker.postMessage({ id, kind: engine.kind, text } satisfies Ask);
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script);
    worker.on('message', (reply: Reply) => {
      const waiting = this.waiting.get(reply.id);
      if (!waiting) return;
      if ('part' in reply) {
        for (const entry of reply.part.entries) waiting.entries.push(entry);
        for (const label of reply.part.labels ?? []) waiting.labels.push(label);
        // The next part after a turn of the event loop: others' requests run between two parts.
        setImmediate(() => worker.postMessage({ id: reply.id, next: true } satisfies Ask));
        return;
      }
      this.waiting.delete(reply.id);
      const { result } = reply;
      waiting.resolve(result.ok ? { ok: true, value: { ...result.value, entries: waiting.entries, labels: result.value.labels && waiting.labels } } : result);
    });
    // A worker that dies fails what it had, and the next record starts a new one.
    const fail = (why: string) => {
      this.logger.error(`record parser thread stopped: ${why}`);
      for (const { resolve } of this.waiting.values()) resolve({ ok: false, error: { code: 'INTERNAL', message: 'the record could not be parsed; try again' } });
      this.waiting.clear();
      if (this.worker === worker) this.worker = null;
    };
    worker.on('error', (err) => fail(String(err)));
    worker.on('exit', (code) => code !== 0 && fail(`exit code ${code}`));
    worker.unref();
    this.worker = worker;
    return worker;
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker?.terminate();
    this.worker = null;
  }
}
