import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { gql } from '../../tools/bot.js';

/**
 * Cross-instance staleness: how long after instance A acknowledged a move at version v another
 * instance B serves that version. Two ways of asking B:
 *
 * - polling: B's `game(id) { version }` every `intervalMs` until it answers >= v;
 * - subscription: a `gameEvents` subscription held open on B since the game started, and the
 *   time at which B delivered the event with seq >= v.
 *
 * Both are measured from the moment the client received A's acknowledgement, so a delivery
 * that arrived before it counts as negative (B was told before the client was).
 */

const VERSION = 'query($id: ID!) { game(id: $id) { version } }';
const EVENTS = 'subscription($id: ID!) { gameEvents(gameId: $id, afterSeq: 0) { seq } }';

export interface StalenessSample {
  /** ms from A's acknowledgement to B answering >= v; null when it did not within the cap, undefined when not polled. */
  polled?: number | null;
  polls: number;
  /** ms from A's acknowledgement to B delivering seq >= v over its subscription; null when it did not within the cap, undefined when not subscribed. */
  delivered?: number | null;
  /** For a subscription timeout: what the probe knew, to tell a missed notification from a slow one. */
  missed?: { gameId: string; version: number; instance: number; lastDelivered: number | null; watchedSince: number; note: string };
}

export interface StalenessOptions {
  /** How long to wait for B before counting a timeout (default 10 s). */
  capMs?: number;
  /** Pause between two polls (default 2 ms). */
  intervalMs?: number;
  /** Which ways of asking B to measure (default both). */
  poll?: boolean;
  subscribe?: boolean;
}

/** One game's event stream on one instance, with the time each sequence number arrived. */
class Watch {
  private readonly seqs: number[] = [];
  private readonly times: number[] = [];
  private readonly waiters = new Set<{ v: number; resolve: (t: number | null) => void }>();
  private readonly unsubscribe: () => void;
  private stopped = false;

  constructor(
    client: Client,
    readonly gameId: string,
    onError: (err: unknown) => void,
  ) {
    this.unsubscribe = client.subscribe(
      { query: EVENTS, variables: { id: gameId } },
      {
        next: (msg) => {
          const seq = (msg.data as { gameEvents?: { seq: number } } | null)?.gameEvents?.seq;
          if (typeof seq === 'number') this.arrived(seq, performance.now());
          else if (msg.errors) onError(msg.errors);
        },
        error: (err) => {
          if (!this.stopped) onError(err);
        },
        complete: () => undefined,
      },
    );
  }

  private arrived(seq: number, at: number): void {
    if (this.seqs.length > 0 && seq <= this.seqs.at(-1)!) return;
    this.seqs.push(seq);
    this.times.push(at);
    for (const w of this.waiters) {
      if (seq >= w.v) {
        this.waiters.delete(w);
        w.resolve(at);
      }
    }
  }

  /** The newest seq delivered so far, or null. */
  get lastSeq(): number | null {
    return this.seqs.at(-1) ?? null;
  }

  /** When the watch was opened (performance.now()). */
  readonly since = performance.now();

  /** When seq >= v arrived (perhaps already), or null if not before `deadline` (performance.now()). */
  arrivalOf(v: number, deadline: number): Promise<number | null> {
    const i = this.seqs.findIndex((s) => s >= v);
    if (i >= 0) return Promise.resolve(this.times[i]);
    return new Promise((resolve) => {
      const waiter = { v, resolve };
      this.waiters.add(waiter);
      setTimeout(
        () => {
          if (this.waiters.delete(waiter)) resolve(null);
        },
        Math.max(0, deadline - performance.now()),
      );
    });
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    for (const w of this.waiters) w.resolve(null);
    this.waiters.clear();
  }
}

export class StalenessProbe {
  private readonly clients: Client[];
  /** Per load client: its current game's watches, by instance. */
  private readonly watches = new Map<number, Map<number, Watch>>();
  readonly samples: StalenessSample[] = [];
  subscriptionErrors = 0;
  firstError: unknown = null;
  private readonly capMs: number;
  private readonly intervalMs: number;
  readonly polling: boolean;
  readonly subscribing: boolean;

  constructor(
    private readonly urls: string[],
    options: StalenessOptions = {},
  ) {
    this.capMs = options.capMs ?? 10_000;
    this.intervalMs = options.intervalMs ?? 2;
    this.polling = options.poll ?? true;
    this.subscribing = options.subscribe ?? true;
    // One WebSocket per instance, every subscription multiplexed on it.
    this.clients = urls.map((url) => createClient({ url: `${url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, connectionParams: {}, lazy: true, retryAttempts: 0 }));
  }

  /** Opens `gameId`'s subscriptions on `instances` for load client `client` (closing the ones of its previous game). */
  watchGame(client: number, gameId: string, instances: number[]): void {
    this.unwatch(client);
    if (!this.subscribing) return;
    const byInstance = new Map<number, Watch>();
    for (const i of instances)
      byInstance.set(
        i,
        new Watch(this.clients[i], gameId, (err) => {
          this.subscriptionErrors++;
          this.firstError ??= err;
        }),
      );
    this.watches.set(client, byInstance);
  }

  unwatch(client: number): void {
    for (const w of this.watches.get(client)?.values() ?? []) w.stop();
    this.watches.delete(client);
  }

  /**
   * Measures one acknowledged move: `version` acknowledged at `ackedAt` (performance.now()) by
   * another instance than `instance`, asked here by polling and by the subscription at once.
   */
  async probe(client: number, gameId: string, version: number, ackedAt: number, instance: number, note = ''): Promise<StalenessSample> {
    const deadline = ackedAt + this.capMs;
    const watch = this.watches.get(client)?.get(instance);
    const [polled, delivered] = await Promise.all([
      this.polling ? this.poll(this.urls[instance], gameId, version, ackedAt, deadline) : Promise.resolve(undefined),
      !this.subscribing ? Promise.resolve(undefined) : watch && watch.gameId === gameId ? watch.arrivalOf(version, deadline).then((t) => (t === null ? null : t - ackedAt)) : Promise.resolve(null),
    ]);
    const sample: StalenessSample = { polled: polled?.at, polls: polled?.polls ?? 0, delivered };
    if (delivered === null) sample.missed = { gameId, version, instance, lastDelivered: watch?.lastSeq ?? null, watchedSince: watch ? ackedAt - watch.since : Number.NaN, note };
    this.samples.push(sample);
    return sample;
  }

  private async poll(url: string, gameId: string, version: number, ackedAt: number, deadline: number): Promise<{ at: number | null; polls: number }> {
    let polls = 0;
    while (performance.now() < deadline) {
      polls++;
      const answer = await gql(url, VERSION, { id: gameId });
      const served = answer.data?.game?.version;
      const at = performance.now();
      if (at > deadline) break; // answered too late: a timeout like no answer
      if (typeof served === 'number' && served >= version) return { at: at - ackedAt, polls };
      await new Promise((r) => setTimeout(r, this.intervalMs));
    }
    return { at: null, polls };
  }

  async close(): Promise<void> {
    for (const client of [...this.watches.keys()]) this.unwatch(client);
    await Promise.all(this.clients.map((c) => c.dispose()));
  }
}
