import {
  type Clock,
  type ConsequenceHandler,
  deadlineMs,
  type GameNotice,
  type GameSnapshot,
  gameAnswer,
  gameDocument,
  type LowTimeListener,
  NOTICE_TYPES,
  noticesOf,
  sha256Hex,
  type StoredEvent,
  TOURNAMENT_NOTICE_TYPES,
} from '../referee/index.js';
import { type OutboxMessage, WEBHOOK_OUTBOX } from './outbox.js';

/** What a player's registration may ask to be told of its challenges, and the `type` each is sent as (the stream's). */
export const CHALLENGE_TYPES = {
  CHALLENGE_RECEIVED: 'challenge.received',
  CHALLENGE_ACCEPTED: 'challenge.accepted',
  CHALLENGE_DECLINED: 'challenge.declined',
  CHALLENGE_CANCELLED: 'challenge.cancelled',
} as const;
export const CHALLENGE_EVENTS = Object.keys(CHALLENGE_TYPES) as (keyof typeof CHALLENGE_TYPES)[];

/** What a tournament's organizer, its participants and their players may ask to be told of it (tournament-notices.ts). */
export const TOURNAMENT_EVENTS = Object.keys(TOURNAMENT_NOTICE_TYPES) as (keyof typeof TOURNAMENT_NOTICE_TYPES)[];

/** What a webhook registration may ask to be told: the games' notices (as the players' stream tells them), low time, challenges and tournaments. */
export const WEBHOOK_EVENTS = [
  'YOUR_TURN',
  'GAME_OVER',
  'TIME_RUNNING_LOW',
  'TIMED_OUT',
  'GAME_STARTED',
  'PAUSE_REQUESTED',
  'TIME_GIVEN',
  'OPPONENT_ON_VACATION',
  ...CHALLENGE_EVENTS,
  ...TOURNAMENT_EVENTS,
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** The `type` each is sent as (Standard Webhooks: a dotted, lower-case event name), the stream's own. */
export const MESSAGE_TYPES: Record<WebhookEvent, string> = { ...NOTICE_TYPES, TIME_RUNNING_LOW: 'game.time_running_low', ...CHALLENGE_TYPES, ...TOURNAMENT_NOTICE_TYPES };

/** A registration as the notifications need it: what it is told, about which games and seats. */
export interface Registration {
  id: string;
  events: readonly WebhookEvent[];
  lowTimeThresholdsSeconds: readonly number[];
  /** A game's: all its seats, or `seat` only… */
  gameId: string | null;
  seat: number | null;
  /** …or a tournament's: its games' seats, or `participantId`'s only… */
  tournamentId: string | null;
  participantId: string | null;
  /** …or a player's: its seats in every game. */
  playerId: string | null;
}

/** A change of registrations, by any instance, told by the store. */
export interface RegistrationChange extends Scope {
  id: string;
  at: Date;
}

/** What a registration is for, as a change of it names it. */
interface Scope {
  gameId: string | null;
  tournamentId: string | null;
  playerId: string | null;
}

/** Where the registrations are kept, and the messages no event causes (src/webhooks/ implements it). */
export interface NotificationStore {
  /** The registrations that may concern a game: its own, its tournament's and its seats' players'. */
  registrationsFor(gameId: string, tournamentId: string | null, playerIds: readonly string[]): Promise<Registration[]>;
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

/** What a message tells: a game's notice, or a seat's time running low. */
type Told = GameNotice | { type: 'TIME_RUNNING_LOW'; to: number[]; seat: number; remainingMs: number; thresholdSeconds: number };

/** The games cached, each with the registrations that concern it and the players they were looked up for. */
interface Held {
  tournamentId: string | null;
  players: readonly string[];
  registrations: readonly Registration[];
}

/**
 * The webhooks' consequences of the games' appends: the messages each stored batch of events
 * causes (the outbox projection, stored with the events): the game's notices (noticesOf, as the
 * players' stream tells them: started, your turn with its deadline, timed out, over with its
 * reason, a pause asked for, time given, vacation), each to the registrations of the seats it is
 * for. And the deadline worker's low-time listener: the thresholds the
 * registrations ask for, and a message for each crossing. The registrations are cached per
 * game, so a move looks them up once; with no registration anywhere it looks up nothing.
 * Changes are dropped from the cache at once on this instance and within a poll (`refresh`) on
 * the others.
 */
export class Notifications implements ConsequenceHandler<GameSnapshot>, LowTimeListener<GameSnapshot> {
  readonly projection = WEBHOOK_OUTBOX;
  private any = false;
  private readonly byGame = new Map<string, Held>();
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
    const notices = noticesOf(before, after, events);
    if (notices.length === 0) return NONE;
    // Events were stored, or nothing would have changed: the messages are stamped with the last.
    const at = events.at(-1)!.createdAt;
    return registrations.flatMap((r) => notices.flatMap((notice, n) => messageOf(r, after, notice, after.version, n, at) ?? []));
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
      const told: Told = { type: 'TIME_RUNNING_LOW', to: [seat], seat, remainingMs, thresholdSeconds: threshold };
      // One per threshold and turn (the id says which, not the version: a turn spans several): calling again is a no-op.
      const n = LOW_TIME_N + r.lowTimeThresholdsSeconds.filter((t) => t > threshold).length;
      return messageOf(r, game, told, game.version, n, at, `low ${threshold} ${deadline}`) ?? [];
    });
    if (messages.length === 0) return;
    await this.store.enqueue(messages);
    this.enqueued();
  }

  /** `listener` is called each time messages are stored apart from a move, or made due now (the delivery worker's wake-up). */
  whenEnqueued(listener: () => void): void {
    this.enqueued = listener;
  }

  /** Whether any registration exists, as far as this instance knows (none: nothing to derive). */
  mayNotify(): boolean {
    return this.any;
  }

  /** Messages were made due now (a redelivery, a registration resumed, a challenge's messages stored): the delivery worker looks at once. */
  madeDue(): void {
    this.enqueued();
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
  changed(scope: Scope, made: boolean): void {
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

  private forget(scope: Scope): void {
    this.epoch++;
    if (scope.gameId) this.byGame.delete(scope.gameId);
    const { tournamentId, playerId } = scope;
    if (tournamentId || playerId) {
      for (const [id, held] of this.byGame) if ((tournamentId && held.tournamentId === tournamentId) || (playerId && held.players.includes(playerId))) this.byGame.delete(id);
    }
  }

  private async registrationsOf(game: GameSnapshot): Promise<readonly Registration[]> {
    const players = [...new Set(game.seatPlayers.filter((p): p is string => Boolean(p)))];
    const held = this.byGame.get(game.gameId);
    // A seat bound to a player since (joinGame with a player's key) brings that player's registrations: looked up again.
    if (held && held.players.length === players.length && players.every((p) => held.players.includes(p))) {
      // Most recently used last: a Map keeps its keys in the order they were set.
      this.byGame.delete(game.gameId);
      this.byGame.set(game.gameId, held);
      return held.registrations;
    }
    const epoch = this.epoch;
    const registrations = await this.store.registrationsFor(game.gameId, game.tournamentId, players);
    if (epoch === this.epoch) {
      this.byGame.set(game.gameId, { tournamentId: game.tournamentId, players, registrations });
      if (this.byGame.size > MAX_CACHED_GAMES) this.byGame.delete(this.byGame.keys().next().value!);
    }
    return registrations;
  }
}

/** The seats of `game` a registration is about (none: the game is not its concern). */
function seatsOf(r: Registration, game: GameSnapshot): number[] {
  if (r.gameId === game.gameId) return r.seat === null ? game.seats.map((s) => s.index) : [r.seat];
  if (r.tournamentId !== null && r.tournamentId === game.tournamentId) {
    return game.seats.filter((s) => r.participantId === null || s.participantId === r.participantId).map((s) => s.index);
  }
  if (r.playerId !== null) return game.seats.filter((s) => game.seatPlayers[s.index] === r.playerId).map((s) => s.index);
  return [];
}

/**
 * The message telling `r` of `told`, or null when `r` did not ask for it or none of the seats it
 * is for are `r`'s. Its id is derived from `identity`: by default the notice's type at this version.
 */
function messageOf(r: Registration, game: GameSnapshot, told: Told, seq: number, n: number, at: string, identity = `${seq} ${told.type}`): OutboxMessage | null {
  if (!r.events.includes(told.type)) return null;
  const mine = seatsOf(r, game).filter((s) => told.to.includes(s));
  if (mine.length === 0) return null;
  // A registration for one holder's seats (a seat, a participant, a player) sees the game as that seat does; a game-wide one, as a spectator.
  const mySeat = r.seat !== null || r.participantId !== null || r.playerId !== null ? mine[0] : null;
  const { type: event, to: _to, ...detail } = told;
  const seat = 'seat' in detail ? detail.seat : mySeat;
  const type = MESSAGE_TYPES[event];
  const shown = gameDocument(gameAnswer(game, mySeat ?? 'spectator', at), { play: false });
  const data = { gameId: game.gameId, kind: game.kind, seq, seat, mySeat, tournamentId: game.tournamentId, ...detail, ...resultDetail(told), game: shown };
  return {
    // Derived from the registration and what it tells: the same notice is never two messages.
    id: `msg_${sha256Hex(`${r.id} ${game.gameId} ${identity} ${'seat' in told ? told.seat : ''}`).slice(0, 32)}`,
    webhookId: r.id,
    gameId: game.gameId,
    seq,
    n,
    type,
    payload: { type, timestamp: at, data },
    createdAt: at,
  };
}

/** game.over's result as the webhooks have always sent it: the winners, the points and the summary in words. */
function resultDetail(told: Told): { result?: { winners: number[]; points: number[]; summary: string } | null } {
  if (told.type !== 'GAME_OVER') return {};
  const o = told.result;
  return { result: o && { winners: o.winners, points: o.points, summary: o.summary } };
}
