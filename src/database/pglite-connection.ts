import { Duplex } from 'node:stream';
import { CANCEL_REQUEST, GSSENC_REQUEST, SSL_REQUEST } from './wire-messages.js';

/** What a connection needs of the bridge it talks to (pglite-bridge.ts): a line to queue its exchanges in. */
export interface ExchangeQueue {
  readonly isClosed: boolean;
  enqueue(exchange: Exchange): void;
  forget(session: Session): void;
}

/** A run of one connection's messages that ends at a point where PostgreSQL answers. */
export interface Exchange {
  session: Session;
  bytes: Buffer;
  /** `startup`, or the type of the last message: S (Sync), Q (Query), H (Flush). */
  end: 'startup' | 'S' | 'Q' | 'H';
}

/** One client connection: splits the byte stream into messages and queues them as exchanges. */
export class Session {
  closed = false;
  private started = false;
  private buffer: Buffer = Buffer.alloc(0);
  private messages: Buffer[] = [];

  constructor(
    private readonly bridge: ExchangeQueue,
    private readonly socket: BridgeSocket,
  ) {}

  receive(chunk: Buffer): void {
    if (this.closed) return;
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      if (!this.started) {
        if (this.buffer.length < 8) return;
        const length = this.buffer.readInt32BE(0);
        const code = this.buffer.readInt32BE(4);
        if (length === 8 && (code === SSL_REQUEST || code === GSSENC_REQUEST)) {
          this.buffer = this.buffer.subarray(8);
          this.deliver(Buffer.from('N'));
          continue;
        }
        if (length === 16 && code === CANCEL_REQUEST) {
          this.close(); // PGlite has no other backend to cancel
          return;
        }
        if (this.buffer.length < length) return;
        const startup = Buffer.from(this.buffer.subarray(0, length));
        this.buffer = this.buffer.subarray(length);
        this.started = true;
        this.bridge.enqueue({ session: this, bytes: startup, end: 'startup' });
        continue;
      }
      if (this.buffer.length < 5) return;
      const type = this.buffer[0];
      const length = 1 + this.buffer.readInt32BE(1);
      if (this.buffer.length < length) return;
      const message = Buffer.from(this.buffer.subarray(0, length));
      this.buffer = this.buffer.subarray(length);
      if (type === 0x58 /* X: Terminate */) {
        this.close();
        return;
      }
      this.messages.push(message);
      if (type === 0x53 /* S */ || type === 0x51 /* Q */ || type === 0x48 /* H */) {
        const bytes = this.messages.length === 1 ? message : Buffer.concat(this.messages);
        this.messages = [];
        this.bridge.enqueue({ session: this, bytes, end: String.fromCharCode(type) as 'S' | 'Q' | 'H' });
      }
    }
  }

  deliver(bytes: Buffer): void {
    if (!this.closed && bytes.length > 0) this.socket.push(bytes);
  }

  /** The server ends the connection (after a refused start-up). */
  hangUp(): void {
    if (this.closed) return;
    this.socket.push(null);
    this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.messages = [];
    this.buffer = Buffer.alloc(0);
    this.bridge.forget(this);
  }
}

/** The client's end: what `pg` takes for a socket. */
export class BridgeSocket extends Duplex {
  private readonly session: Session;

  constructor(bridge: ExchangeQueue) {
    super();
    this.session = new Session(bridge, this);
    if (bridge.isClosed) process.nextTick(() => this.destroy(new Error('the embedded database is closed')));
  }

  connect(): this {
    process.nextTick(() => this.emit('connect'));
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }

  override _read(): void {
    /* answers are pushed as they come */
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.session.receive(chunk);
    callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.session.close();
    this.push(null);
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.session.close();
    callback(error);
  }
}
