import { statfsSync } from 'node:fs';
import type { Duplex } from 'node:stream';
import type { PGlite } from '@electric-sql/pglite';
import { BridgeSocket, type Exchange, type Session } from './pglite-connection.js';
import { isStorageError } from './storage-errors.js';
import { errorFields, errorIn, errorResponse, query, readyForQuery, SYNC } from './wire-messages.js';

/**
 * The PostgreSQL wire protocol between `pg` clients and an embedded PGlite, in process: no TCP
 * port, no Unix socket, nothing another process could connect to. A pg client gets an in-memory
 * duplex stream (pg's `stream` option) and the bridge feeds its messages to PGlite.
 *
 * PGlite is ONE PostgreSQL session. The bridge hands it to one connection at a time, for whole
 * exchanges: a connection's messages run up to and including its Sync (extended protocol) or
 * Query (simple protocol), and while that leaves a transaction open (ReadyForQuery status T or E)
 * or a portal half-read (Flush), the session stays with that connection; the others' statements
 * wait in line. So statements never interleave (an unnamed statement parsed by one connection is
 * never bound by another) and one connection's transaction never sees another's statements. A
 * connection that goes away mid-transaction is rolled back.
 *
 * Storage: before an exchange starts on an idle session, the free space of the data folder's disk
 * is checked; under `reserveBytes` the session is made read-only (`default_transaction_read_only`)
 * so that writes are refused cleanly, as SQLSTATE 53100 disk_full, while reads go on; above it,
 * writable again. Without that reserve PGlite would run out of space in the middle of writing
 * its WAL, which is a PANIC: the embedded engine is then unusable (its next statement never
 * returns) until the process restarts. If a PANIC or FATAL happens all the same, the bridge
 * marks the engine dead and answers every later statement with an error instead of calling it.
 */

export interface BridgeLog {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface EngineFailure {
  /** Whether the failure was a storage one (disk full). */
  storage: boolean;
  /** PostgreSQL's own message, for the log only. */
  detail: string;
  /** Why the service stopped the engine itself (it lost its data folder), said to every statement after. */
  stoppedBecause?: string;
}

export interface BridgeOptions {
  /** A folder on the disk that holds the database (its free space is measured). */
  dataDir: string;
  /** Free bytes under which the database is made read-only. */
  reserveBytes: number;
  log: BridgeLog;
}

/** Work for the session: a connection's exchange, or the bridge's own (session null). */
interface Job {
  session: Session | null;
  run: () => Promise<void>;
}

export class PGliteBridge {
  private readonly queue: Job[] = [];
  /** The connection that holds the session between exchanges (open transaction or half-read portal). */
  private owner: Session | null = null;
  private running = false;
  private idleWaiters: (() => void)[] = [];
  private readOnly = false;
  private guardOn = false;
  private lastFree: number | null = null;
  private failure: EngineFailure | null = null;
  private closed = false;

  constructor(
    private readonly db: PGlite,
    private readonly options: BridgeOptions,
  ) {}

  /** A new client connection: pass as pg's `stream` option (`stream: () => bridge.connect()`). */
  connect(): Duplex {
    return new BridgeSocket(this);
  }

  /** Starts the free-space guard (after migrations, which must write even on a nearly full disk). */
  enableStorageGuard(): void {
    this.guardOn = true;
  }

  /** Set when the engine failed (PANIC or FATAL) and needs a restart. */
  get dead(): EngineFailure | null {
    return this.failure;
  }

  /** Whether writes are refused for lack of free space (as of the last check). */
  get storageLow(): boolean {
    return this.readOnly;
  }

  /** The free bytes measured last, or null before the first check. */
  get freeBytes(): number | null {
    return this.lastFree;
  }

  /** Bytes of free space under which writes are refused. */
  get reserveBytes(): number {
    return this.options.reserveBytes;
  }

  set reserveBytes(bytes: number) {
    this.options.reserveBytes = bytes;
  }

  /** Measures the free space now, between two exchanges, and applies the guard (readiness checks). */
  checkStorage(): Promise<void> {
    return this.between(() => (this.failure ? Promise.resolve() : this.guard())).catch((err) => this.options.log.error(`embedded database bridge: ${(err as Error)?.stack ?? String(err)}`));
  }

  /**
   * Runs `work` on the engine while no connection holds the session: between two exchanges and
   * outside every transaction (an online backup's copy of the files holds only committed work).
   */
  between<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ session: null, run: () => work().then(resolve, reject) });
      this.pump();
    });
  }

  /** Resolves when no exchange is running or waiting. */
  whenIdle(): Promise<void> {
    if (!this.running && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Refuses new connections and answers the open ones with an error. */
  close(): void {
    this.closed = true;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  enqueue(exchange: Exchange): void {
    this.queue.push({ session: exchange.session, run: () => this.run(exchange) });
    this.pump();
  }

  /** A connection went away: drop what it queued, and roll back what it left open. */
  forget(session: Session): void {
    for (let i = this.queue.length - 1; i >= 0; i--) if (this.queue[i].session === session) this.queue.splice(i, 1);
    this.pump();
  }

  private pump(): void {
    if (this.running) return;
    let task: (() => Promise<void>) | null = null;
    if (this.owner?.closed) {
      task = () => this.resetSession();
    } else {
      const i = this.owner ? this.queue.findIndex((x) => x.session === this.owner) : this.queue.length > 0 ? 0 : -1;
      if (i >= 0) task = this.queue.splice(i, 1)[0].run;
    }
    if (!task) {
      if (this.queue.length === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
      return;
    }
    this.running = true;
    // Each exchange in its own turn of the event loop, as over a socket: requests arriving
    // meanwhile are read, and the event store's group commit can gather their appends.
    void new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((err) => this.options.log.error(`embedded database bridge: ${(err as Error)?.stack ?? String(err)}`))
      .finally(() => {
        this.running = false;
        this.pump();
      });
  }

  private async run(x: Exchange): Promise<void> {
    if (x.session.closed) return;
    if (this.failure || this.closed) {
      // Nothing runs any more: no connection holds the session.
      this.owner = null;
      x.session.deliver(failureAnswer(x.end, this.failure));
      if (x.end === 'startup') x.session.hangUp();
      return;
    }
    if (!this.owner && x.end !== 'startup') await this.guard();
    const out = await this.exec(x.bytes);
    if (out === null) {
      x.session.deliver(failureAnswer(x.end, this.failure));
      this.owner = null;
      return;
    }
    const { bytes, status } = this.inspect(out);
    x.session.deliver(bytes);
    // The session stays with this connection while a transaction is open or a portal half-read.
    this.owner = !this.failure && ((status !== null && status !== 'I') || x.end === 'H') ? x.session : null;
  }

  /** Runs protocol bytes on PGlite; null if the engine failed. */
  private async exec(bytes: Buffer): Promise<Buffer | null> {
    const chunks: Buffer[] = [];
    try {
      await this.db.runExclusive(() => this.db.execProtocolRawStream(bytes, { onRawData: (data) => chunks.push(Buffer.from(data)) }));
    } catch (err) {
      this.fail({ storage: isStorageError(err), detail: (err as Error)?.message ?? String(err) });
      return null;
    }
    return Buffer.concat(chunks);
  }

  /**
   * Walks PGlite's answer: notes the ReadyForQuery status, fails the engine on a PANIC or FATAL,
   * and turns "read-only transaction" refusals into disk_full while the guard holds.
   */
  private inspect(out: Buffer): { bytes: Buffer; status: string | null } {
    let status: string | null = null;
    let rewritten: Buffer[] | null = null;
    let from = 0;
    for (let at = 0; at + 5 <= out.length; ) {
      const type = out[at];
      const end = at + 1 + out.readInt32BE(at + 1);
      if (end > out.length) break;
      if (type === 0x5a /* Z */) status = String.fromCharCode(out[end - 1]);
      if (type === 0x45 /* E */) {
        const fields = errorFields(out.subarray(at + 5, end));
        const severity = fields.V ?? fields.S ?? '';
        if (severity === 'PANIC' || severity === 'FATAL') {
          this.fail({ storage: fields.C === '53100' || isStorageError({ message: fields.M }), detail: `${severity}: ${fields.M ?? ''} (${fields.C ?? ''})` });
        } else if (this.readOnly && fields.C === '25006') {
          rewritten ??= [];
          rewritten.push(out.subarray(from, at), errorResponse('ERROR', '53100', this.diskFullMessage()));
          from = end;
        }
      }
      at = end;
    }
    if (rewritten) {
      rewritten.push(out.subarray(from));
      return { bytes: Buffer.concat(rewritten), status };
    }
    return { bytes: out, status };
  }

  private diskFullMessage(): string {
    const mb = (n: number) => `${Math.floor(n / 1048576)} MB`;
    return `the disk that holds the embedded database is nearly full (${this.lastFree === null ? '?' : mb(this.lastFree)} free, ${mb(this.options.reserveBytes)} needed): writes are refused until space is freed`;
  }

  /** Checks the free space and makes the session read-only below the reserve, writable above it. */
  private async guard(): Promise<void> {
    if (!this.guardOn) return;
    let free: number | null = null;
    try {
      const s = statfsSync(this.options.dataDir);
      free = Number(s.bavail) * Number(s.bsize);
    } catch {
      /* unknown: leave the guard as it is */
    }
    this.lastFree = free;
    if (free === null) return;
    const low = free < this.options.reserveBytes;
    if (low === this.readOnly) return;
    const out = await this.exec(Buffer.concat([query(`SET default_transaction_read_only = ${low ? 'on' : 'off'}`)]));
    if (out === null) return;
    const failed = errorIn(out);
    if (failed) {
      this.options.log.error(`embedded database: could not ${low ? 'refuse' : 'allow'} writes: ${failed}`);
      return;
    }
    this.readOnly = low;
    if (low) this.options.log.warn(this.diskFullMessage());
    else this.options.log.log(`free space for the embedded database is back (${Math.floor(free / 1048576)} MB); writes are allowed again`);
  }

  /** The connection that held the session went away: end its exchange and roll back its transaction. */
  private async resetSession(): Promise<void> {
    this.owner = null;
    if (this.failure) return;
    await this.exec(Buffer.concat([SYNC, query('ROLLBACK')]));
  }

  /** Refuses every statement from now on, saying why: the engine may not write any more (its data folder was taken over). */
  stop(why: string): void {
    this.fail({ storage: false, detail: why, stoppedBecause: why });
  }

  private fail(failure: EngineFailure): void {
    if (this.failure) return;
    this.failure = failure;
    this.options.log.error(
      `embedded database failed and must be restarted (every statement is refused until then)${failure.storage ? ': the disk is full; free space, then restart the service' : ''}. PostgreSQL said: ${failure.detail}`,
    );
  }
}

/** The answer to an exchange once the engine has failed. */
function failureAnswer(end: Exchange['end'], failure: EngineFailure | null): Buffer {
  const storage = failure?.storage ?? false;
  const message = failure?.stoppedBecause
    ? `the embedded database stopped: ${failure.stoppedBecause}`
    : failure
      ? `the embedded database stopped after ${storage ? 'running out of disk space' : 'an internal failure'}; restart the service${storage ? ' once space is freed' : ''}`
      : 'the embedded database is closed';
  const code = failure ? (storage ? '53100' : '58030') : '57P01';
  if (end === 'startup') return errorResponse('FATAL', code, message);
  const error = errorResponse('ERROR', code, message);
  return end === 'H' ? error : Buffer.concat([error, readyForQuery('I')]);
}
