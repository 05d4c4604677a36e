import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import { literalAddress } from '../config/addresses.js';
import type { WebhookHost } from '../config/config.js';
import { addressAllowed } from './url-policy.js';

/** An address a delivery connects to, checked against the operator's policy. */
export interface Destination {
  address: string;
  family: 4 | 6;
}

/**
 * Why an attempt failed, in the few words its registrant sees: never a connection's error code,
 * which would tell a closed port from an open one, or one service from another, to anyone who
 * may register a URL.
 */
export class DeliveryFailure extends Error {
  constructor(readonly reason: 'refused destination' | 'could not connect' | 'no valid answer' | 'timed out') {
    super(reason);
  }
}

/**
 * Resolves the URL's host now, at the delivery, and answers the addresses the policy lets it
 * reach (url-policy.ts: public, or named exactly by the operator), in the resolver's order;
 * refuses when there is none.
 */
export async function resolveDestination(url: URL, allowed: readonly WebhookHost[] | '*', timeoutMs: number): Promise<Destination[]> {
  const literal = literalAddress(url.hostname);
  let found: { address: string; family: number }[];
  if (literal) found = [{ address: literal, family: isIP(literal) }];
  else {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, fail) => {
      timer = setTimeout(() => fail(new DeliveryFailure('could not connect')), timeoutMs);
    });
    try {
      found = await Promise.race([lookup(url.hostname, { all: true, verbatim: true }), late]);
    } catch {
      throw new DeliveryFailure('could not connect');
    } finally {
      clearTimeout(timer);
    }
  }
  const ok = found.filter((a) => addressAllowed(url, a.address, allowed));
  if (ok.length === 0) throw new DeliveryFailure('refused destination');
  return ok.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

export interface PostOptions {
  headers: Record<string, string>;
  body: string;
  /** Connecting (TCP) must be done within this: else it timed out. */
  connectTimeoutMs: number;
  /** The whole attempt's end: a stop or its timeout. */
  signal: AbortSignal;
}

/**
 * One POST to the checked addresses `to`, whatever the URL's host resolves to by then: the
 * connection goes to one of them (no second lookup a rebinding name could answer differently;
 * Node tries them in turn), on a connection of its own. Answers the status; the body is not
 * read. Redirects are not followed.
 */
export function post(url: URL, to: readonly Destination[], options: PostOptions): Promise<number> {
  const pinned: LookupFunction = (_host, opts, done) => {
    if ((opts as { all?: boolean }).all) (done as (err: null, addresses: Destination[]) => void)(null, [...to]);
    else done(null, to[0].address, to[0].family);
  };
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise<number>((resolve, reject) => {
    let connected = false;
    const req = send(url, {
      method: 'POST',
      headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
      agent: false,
      lookup: pinned,
      signal: options.signal,
    });
    const connecting = setTimeout(() => req.destroy(new DeliveryFailure('timed out')), options.connectTimeoutMs);
    req.on('socket', (socket: Socket) =>
      socket.once('connect', () => {
        connected = true;
        clearTimeout(connecting);
      }),
    );
    req.on('response', (res) => {
      clearTimeout(connecting);
      resolve(res.statusCode ?? 0);
      res.destroy();
    });
    req.on('error', (err) => {
      clearTimeout(connecting);
      reject(err instanceof DeliveryFailure ? err : new DeliveryFailure(connected ? 'no valid answer' : 'could not connect'));
    });
    req.end(options.body);
  });
}
