import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { freePort } from './net.js';

/** One request the receiver got, and what it answered. */
export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  headers: IncomingHttpHeaders;
  status: number;
}

/** A message's body (Standard Webhooks: type, timestamp, data). */
export interface WebhookBody {
  type: string;
  timestamp: string;
  data: { gameId: string; seq: number; seat: number | null; [key: string]: unknown };
}

/**
 * A webhook receiver on a loopback port (node:http): it records every request and answers
 * `status` (200 by default; set 503 to refuse them). `stop()` closes the port (connections are
 * refused) and `start()` opens the same port again.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  status = 200;
  /** false: requests are taken and never answered (a receiver that hangs), counted in `open` (now) and `mostOpen` (at most at once), not in `received`. */
  answering = true;
  open = 0;
  mostOpen = 0;
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private waiters: (() => void)[] = [];

  private constructor(readonly port: number) {}

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver(await freePort());
    await receiver.start();
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (!this.answering) {
          this.mostOpen = Math.max(this.mostOpen, ++this.open);
          res.on('close', () => this.open--);
          return;
        }
        const h = (name: string) => String(req.headers[name] ?? '');
        this.received.push({
          id: h('webhook-id'),
          timestamp: h('webhook-timestamp'),
          signature: h('webhook-signature'),
          body: Buffer.concat(chunks).toString('utf8'),
          headers: req.headers,
          status: this.status,
        });
        res.writeHead(this.status).end();
        for (const w of this.waiters.splice(0)) w();
      });
    });
    server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((done) => server.listen(this.port, '127.0.0.1', done));
    this.server = server;
  }

  /** Closes the port: from now on connections are refused. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  }

  /** Resolves once `done()` holds, checked after every request; fails after `timeoutMs` (a safety net, not a pace). */
  async until(done: () => boolean, timeoutMs = 60_000, what = 'the webhook messages'): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${what} did not arrive within ${timeoutMs / 1000} s; received: ${this.received.map((r) => `${r.id} ${r.status}`).join(', ')}`);
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((wake) => {
        this.waiters.push(wake);
        timer = setTimeout(wake, Math.min(left, 1000));
      });
      clearTimeout(timer);
    }
  }

  /** The messages answered 2xx, each once (deduplicated by webhook-id, as a receiver should), in the order they first arrived. */
  delivered(): Received[] {
    const seen = new Set<string>();
    return this.received.filter((r) => r.status < 300 && !seen.has(r.id) && seen.add(r.id));
  }

  /** A request's body, checked against `secret` by the standardwebhooks package (signature and timestamp); throws if it does not verify. */
  static verify(r: Received, secret: string): WebhookBody {
    return new Webhook(secret).verify(r.body, { 'webhook-id': r.id, 'webhook-timestamp': r.timestamp, 'webhook-signature': r.signature }) as WebhookBody;
  }

  static body(r: Received): WebhookBody {
    return JSON.parse(r.body) as WebhookBody;
  }
}

/** Polls a condition on the service (the delivery log) every 20 ms; `timeoutMs` is a safety net. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs / 1000} s: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
