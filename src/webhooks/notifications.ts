import {
  type Clock,
  type ConsequenceHandler,
  deadlineMs,
  decodeGameEvent,
  type GameSnapshot,
  gameAnswer,
  gameDocument,
  type LowTimeListener,
  seatsToAct,
  sha256Hex,
  type StoredEvent,
} from '../referee/index.js';
import { type OutboxMessage, WEBHOOK_OUTBOX } from './outbox.js';

/** What a webhook registration may ask to be told. */
export const WEBHOOK_EVENTS = ['YOUR_TURN', 'GAME_OVER', 'TIME_RUNNING_LOW', 'TIMED_OUT'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The `type` each is sent as (Standard Webhooks: a dotted, lower-case event name). */
export const MESSAGE_TYPES: Record<WebhookEvent, string> = {
  YOUR_TURN: 'game.your_turn',
  GAME_OVER: 'game.over',
  TIME_RUNNING_LOW: 'game.time_running_low',
  TIMED_OUT: 'game.timed_out',
};

/** A registration as the notifications need it: what it is told, about which games and seats. */
export interface Registration {
  id: string;
  events: readonly WebhookEvent[];
  lowTimeThresholdsSeconds: readonly number[];
  /** A game's: all its seats, or `seat` only… */
  gameId: string | null;
  seat: number | null;
  /** …or a tournament's: its games' seats, or `participantId`'s only. */
  tournamentId: string | null;
  participantId: string | null;
}

/** A change of registrations, by any instance, told by the store. */
export interface RegistrationChange {
  id: string;
  gameId: string | null;
  tournamentId: string | null;
  at: Date;
}

/** Where the registrations are kept, and the messages no event causes (src/webhooks/ implements it). */
export interface NotificationStore {
  /** The registrations that may concern a game: its own and its tournament's. */
  registrationsFor(gameId: string, tournamentId: string | null): Promise<Registration[]>;
  /** Whether any registration exists, and the changes made after `after` (all those kept, without it). */
  changes(after: Date | null): Promise<{ any: boolean; changes: RegistrationChange[] }>;
  /** Stores messages; one whose id is stored already is left as it is. */
  enqueue(messages: readonly OutboxMessage[]): Promise<void>;
}

const NONE: OutboxMessage[] = [];

/** Games whose registrations are held at most (least recently used first out). */
const MAX_CACHED_GAMES = 10_000;
/**
 * Changes are read again this long after they were first seen: a change stamped earlier but
 * committed later than one already seen is not missed (registrations commit in milliseconds).
 */
const CHANGE_OVERLAP_MS = 10_000;
/**
 * Where a low-time message goes among the messages of its version: after the move's own, then
 * by the registration's thresholds, highest first (the order a turn passes them in).
 */
const LOW_TIME_N = 1000;

interface Cause {
  event: WebhookEvent;
  /** The seat it is about; null: the game (a registration for one seat is told its own seat). */
  seat: number | null;
  /** Told only to registrations for that seat (your turn, low time), else to every one of the game. */
  toSeat: boolean;
  data: Record<string, unknown>;
}

/**
 * The webhooks' consequences of the games' appends: the messages each stored batch of events
 * causes (the outbox projection, stored with the events), from the game before and after it: a
 * seat whose time ran out (timed out), a seat that is now to act and was not (your turn), the
 * game's end (game over). And the deadline worker's low-time listener: the thresholds the
 * registrations ask for, and a message for each crossing. The registrations are cached per
 * game, so a move looks them up once; with no registration anywhere it looks up nothing.
 * Changes are dropped from the cache at once on this instance and within a poll (`refresh`) on
 * the others.
 */
export class Notifications implements ConsequenceHandler<GameSnapshot>, LowTimeListener<GameSnapshot> {
  readonly projection = WEBHOOK_OUTBOX;
  private any = false;
  private readonly byGame = new Map<string, { tournamentId: string | null; registrations: readonly Registration[] }>();
  /** Counts invalidations: a lookup that raced with one is not cached. */
  private epoch = 0;
  private lastChangeAt: Date | null = null;
  /** Changes already applied (by id), kept while they can be read again. */
  private readonly seen = new Map<string, number>();
  /** Told when messages were stored outside a move's append (low time): the delivery worker looks at once. */
  private enqueued: () => void = () => undefined;

  constructor(
    private readonly store: NotificationStore,
    private readonly clock: Clock,
  ) {}

  /** The messages a stored batch of events causes, to store with them. */
  async rowsOf(before: GameSnapshot | null, after: GameSnapshot, events: readonly StoredEvent[]): Promise<OutboxMessage[]> {
    if (!this.any) return NONE;
    const registrations = await this.registrationsOf(after);
    if (registrations.length === 0) return NONE;
    const causes = causesOf(before, after, events);
    if (causes.length === 0) return NONE;
    // Events were stored, or nothing would have changed: the messages are stamped with the last.
    const at = events.at(-1)!.createdAt;
    return registrations.flatMap((r) => causes.flatMap((cause, n) => messageOf(r, after, cause, after.version, n, at) ?? []));
  }

  /**
   * A seat of `game` (as stored) has `remainingMs` left: enqueues `game.time_running_low` for
   * each registration whose lowest threshold at or above it was not told yet this turn. Safe to
   * repeat: one message per registration, threshold and turn.
   */
  async timeRunningLow(game: GameSnapshot, seat: number, remainingMs: number): Promise<void> {
    if (!this.any) return;
    // The turn is known by its deadline, which stays put while the seat's clock runs (a roll
    // and its play are one turn); time added or a pause moves it, and time may run low again.
    const deadline = game.clock && !game.ended ? deadlineMs(game.clock, seat) : null;
    if (deadline === null) return;
    const registrations = await this.registrationsOf(game);
    const at = this.clock.now().toISOString();
    const messages = registrations.flatMap((r) => {
      const crossed = r.lowTimeThresholdsSeconds.filter((t) => remainingMs <= t * 1000);
      if (crossed.length === 0) return [];
      const threshold = Math.min(...crossed);
      const cause: Cause = { event: 'TIME_RUNNING_LOW', seat, toSeat: true, data: { remainingMs, thresholdSeconds: threshold } };
      // One per threshold and turn (the id says which, not the version: a turn spans several): calling again is a no-op.
      const n = LOW_TIME_N + r.lowTimeThresholdsSeconds.filter((t) => t > threshold).length;
      return messageOf(r, game, cause, game.version, n, at, `low ${threshold} ${deadline}`) ?? [];
    });
    if (messages.length === 0) return;
    await this.store.enqueue(messages);
    this.enqueued();
  }

  /** `listener` is called each time messages are stored apart from a move (the delivery worker's wake-up). */
  whenEnqueued(listener: () => void): void {
    this.enqueued = listener;
  }

  /** Per seat, the thresholds (seconds, highest first) registrations of the game want `timeRunningLow` called at; a seat past the end has none. */
  async lowTimeThresholds(game: GameSnapshot): Promise<number[][]> {
    // Asked on every move of a game with a clock: with no registration anywhere, no seat has thresholds.
    if (!this.any) return [];
    const perSeat = game.seats.map((): number[] => []);
    for (const r of await this.registrationsOf(game)) {
      if (r.events.includes('TIME_RUNNING_LOW')) for (const seat of seatsOf(r, game)) perSeat[seat]?.push(...r.lowTimeThresholdsSeconds);
    }
    return perSeat.map((ts) => [...new Set(ts)].sort((a, b) => b - a));
  }

  /**
   * Whether an append to this game may have stored messages, as far as this instance knows (the
   * delivery worker looks at once then; another instance's messages are found by its own worker,
   * or by the next poll).
   */
  mayConcern(gameId: string): boolean {
    return this.any && (this.byGame.get(gameId)?.registrations.length ?? 0) > 0;
  }

  /** A registration made or deleted here: its scope's cached registrations are dropped at once. */
  changed(scope: { gameId: string | null; tournamentId: string | null }, made: boolean): void {
    if (made) this.any = true;
    this.forget(scope);
  }

  /** Reads the registrations' changes made by any instance since the last look, and drops what they touch. */
  async refresh(): Promise<void> {
    const after = this.lastChangeAt && new Date(this.lastChangeAt.getTime() - CHANGE_OVERLAP_MS);
    const epoch = this.epoch;
    const { any, changes } = await this.store.changes(after);
    for (const c of changes) {
      if (this.seen.has(c.id)) continue;
      this.seen.set(c.id, c.at.getTime());
      if (!this.lastChangeAt || c.at > this.lastChangeAt) this.lastChangeAt = c.at;
      this.forget(c);
    }
    if (this.lastChangeAt) for (const [id, at] of this.seen) if (at < this.lastChangeAt.getTime() - 2 * CHANGE_OVERLAP_MS) this.seen.delete(id);
    // A registration made here while this was read is not undone by an answer read before it.
    if (any || epoch === this.epoch) this.any = any;
  }

  private forget(scope: { gameId: string | null; tournamentId: string | null }): void {
    this.epoch++;
    if (scope.gameId) this.byGame.delete(scope.gameId);
    if (scope.tournamentId) for (const [id, held] of this.byGame) if (held.tournamentId === scope.tournamentId) this.byGame.delete(id);
  }

  private async registrationsOf(game: GameSnapshot): Promise<readonly Registration[]> {
    const held = this.byGame.get(game.gameId);
    if (held) {
      // Most recently used last: a Map keeps its keys in the order they were set.
      this.byGame.delete(game.gameId);
      this.byGame.set(game.gameId, held);
      return held.registrations;
    }
    const epoch = this.epoch;
    const registrations = await this.store.registrationsFor(game.gameId, game.tournamentId);
    if (epoch === this.epoch) {
      this.byGame.set(game.gameId, { tournamentId: game.tournamentId, registrations });
      if (this.byGame.size > MAX_CACHED_GAMES) this.byGame.delete(this.byGame.keys().next().value!);
    }
    return registrations;
  }
}

/** What a batch of events tells, in order: whose time ran out, who is now to act, how the game ended. */
function causesOf(before: GameSnapshot | null, after: GameSnapshot, events: readonly StoredEvent[]): Cause[] {
  const causes: Cause[] = events.flatMap((e): Cause[] => {
    const typed = e.type === 'TimedOut' ? decodeGameEvent(e) : null;
    return typed?.ok && typed.value.type === 'TimedOut' ? [{ event: 'TIMED_OUT', seat: typed.value.payload.seat, toSeat: false, data: { rule: typed.value.payload.rule } }] : [];
  });
  const wasToAct = before ? seatsToAct(before) : [];
  for (const seat of seatsToAct(after)) if (!wasToAct.includes(seat)) causes.push({ event: 'YOUR_TURN', seat, toSeat: true, data: {} });
  if (after.ended && !before?.ended) {
    const o = after.outcome;
    causes.push({ event: 'GAME_OVER', seat: null, toSeat: false, data: { result: o && { winners: o.winners, points: o.points, summary: o.summary } } });
  }
  return causes;
}

/** The seats of `game` a registration is about (none: the game is not its concern). */
function seatsOf(r: Registration, game: GameSnapshot): number[] {
  const all = game.seats.map((s) => s.index);
  if (r.gameId === game.gameId) return r.seat === null ? all : [r.seat];
  if (r.tournamentId !== null && r.tournamentId === game.tournamentId) return r.participantId === null ? all : game.seats.filter((s) => s.participantId === r.participantId).map((s) => s.index);
  return [];
}

/**
 * The message telling `r` of `cause`, or null when `r` did not ask for it or it is not about its
 * game or seat. Its id is derived from `identity`: by default the cause at this version.
 */
function messageOf(r: Registration, game: GameSnapshot, cause: Cause, seq: number, n: number, at: string, identity = `${seq} ${cause.event}`): OutboxMessage | null {
  if (!r.events.includes(cause.event)) return null;
  const seats = seatsOf(r, game);
  if (seats.length === 0 || (cause.toSeat && !seats.includes(cause.seat!))) return null;
  const oneSeat = r.seat !== null || r.participantId !== null;
  const seat = cause.seat ?? (oneSeat ? seats[0] : null);
  const type = MESSAGE_TYPES[cause.event];
  // The game as the registrant's seat sees it (a game-wide registration: as a spectator), as REST answers it.
  const shown = gameDocument(gameAnswer(game, oneSeat ? seats[0] : 'spectator', at), { play: false });
  const data = { gameId: game.gameId, kind: game.kind, seq, seat, tournamentId: game.tournamentId, ...cause.data, game: shown };
  return {
    // Derived from the registration and the cause: the same cause is never two messages.
    id: `msg_${sha256Hex(`${r.id} ${game.gameId} ${identity} ${cause.seat ?? ''}`).slice(0, 32)}`,
    webhookId: r.id,
    gameId: game.gameId,
    seq,
    n,
    type,
    payload: { type, timestamp: at, data },
    createdAt: at,
  };
}
