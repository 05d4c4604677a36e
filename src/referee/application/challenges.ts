import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy, Optional } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import {
  type ChallengeCommand,
  type ChallengeDecision,
  type ChallengeState,
  type ChallengeStatus,
  challengeAggregate,
  checkChallengeGame,
  decideChallenge,
  foldChallenge,
  type SeatChoice,
  statusAt,
  timeControlInput,
} from '../core/challenge/challenge.js';
import { EngineRegistry } from '../core/engine-registry.js';
import { RefereeError } from '../core/errors.js';
import { advanceHead, chainEvents, emptyHead, type Folded, type StoredEvent } from '../core/stream.js';
import { type ChallengeCursor, type ChallengeFilter, type ChallengeList, ChallengeStore } from '../store/challenge-store.js';
import { type FeedRow, PlayerFeedStore } from '../store/player-feed-store.js';
import { Clock, SystemClock } from './clock.js';
import { Consequences } from './consequences.js';
import type { GameSnapshot } from './game-answer.js';
import { newGameId } from './game-setup.js';
import { HeldStreams } from './held-streams.js';
import { KeyDirectory, type KeyHolder } from './key-holders.js';
import { RefereeService } from './referee.service.js';
import { unwrap } from './seat-tokens.js';
import { type Advanced, StreamCommands, type StreamWriter } from './stream-commands.js';
import { StoredStreams } from './stored-streams.js';

/** A challenge's stream as held: folded, every hash checked. */
export type LiveChallenge = Folded<ChallengeState>;
type ChallengeBatch = { challengeId: string; events: StoredEvent[] };
type AdvancedChallenge = Advanced<LiveChallenge, ChallengeBatch> & { notices: FeedRow[] };
/** A decision with the player who made it (named in the notices it makes). */
type ChallengeStep = { decision: ChallengeDecision; actor: Actor };
type Actor = { id: string; name: string | null };

/** Challenge ids start `ch-`. */
const isChallengeId = (id: string) => /^ch-[A-Za-z0-9_-]{1,64}$/.test(id);
const DEFAULT_PAGE = 20;
const MAX_PAGE = 100;
/** Seat names are at most 64 characters: a longer player name leaves the seat named by its player alone. */
const SEAT_NAME_MAX = 64;
/** Accepted challenges whose game the start-up catch-up creates, a batch at a time. */
const CATCH_UP_BATCH = 100;
const STATUSES: readonly ChallengeStatus[] = ['OPEN', 'ACCEPTED', 'DECLINED', 'CANCELLED', 'EXPIRED'];

export interface IssueChallengeInput {
  /** The player challenged; null: an open challenge. */
  to: string | null;
  kind: string;
  ruleset: unknown;
  /** As createGame takes it (seconds). */
  timeControl: unknown;
  seat: SeatChoice;
  message: string | null;
  expiresInSeconds: number | null;
  /** The game is created rated (docs/ratings.md). */
  rated?: boolean;
}

export interface ChallengePageArgs {
  status?: ChallengeStatus | null;
  first?: number | null;
  after?: string | null;
}

export interface ChallengePage {
  items: { challenge: LiveChallenge; cursor: string }[];
  endCursor: string | null;
  hasNextPage: boolean;
}

/** The challenges' streams: folded from their logs. */
const challengeStreams = (store: ChallengeStore) =>
  new StoredStreams<LiveChallenge, ChallengeBatch>(store, {
    name: 'challenge',
    what: 'challenge',
    isId: isChallengeId,
    idOf: (c) => c.challengeId,
    isOver: (c) => c.status !== 'OPEN',
    fold: foldChallenge,
    batch: (challengeId, events) => ({ challengeId, events }),
  });

/** A challenge's change as its consequences see it: the challenge after the events, and the players' notices they make. */
export interface ChallengeChange {
  challenge: LiveChallenge;
  notices: readonly FeedRow[];
}

/** The challenges' consequences (the webhooks' outbox): the DI token other modules register their handlers with. */
export class ChallengeConsequences extends Consequences<ChallengeChange> {}

/** The challenge's part of the command path: its events stored with its row, the notices they make and the rows they imply, at the expected version. */
class ChallengeWriter implements StreamWriter<LiveChallenge, ChallengeStep, AdvancedChallenge> {
  constructor(
    private readonly store: ChallengeStore,
    private readonly feed: PlayerFeedStore,
    private readonly consequences: ChallengeConsequences,
  ) {}
  advance(c: LiveChallenge, { decision, actor }: ChallengeStep): AdvancedChallenge {
    const events = chainEvents(c.challengeId, c, decision.drafts);
    const next: LiveChallenge = { ...decision.state, ...advanceHead(c, events, challengeAggregate.follows) };
    return { next, events, batch: { challengeId: c.challengeId, events }, notices: noticesOf(next, events, actor) };
  }
  append(c: LiveChallenge, { next, events, notices }: AdvancedChallenge): Promise<void> {
    const head = { version: next.version, headHash: next.lastHash, status: next.status, gameId: next.gameId };
    return this.consequences.appendWith({ challenge: c, notices: [] }, { challenge: next, notices }, events, (rows) => this.store.append(next.challengeId, events, head, notices, rows));
  }
  afterStore(_c: LiveChallenge, { notices }: AdvancedChallenge): void {
    this.feed.written(notices);
  }
}

/**
 * The players' notices a challenge's events make (their stream, docs/players.md): the player
 * challenged hears of a challenge (an open one: nobody) and of its cancellation, the challenger of
 * its acceptance and its decline. Each is stored once (its key: the challenge and the event's seq).
 */
function noticesOf(c: ChallengeState, events: readonly StoredEvent[], by: Actor): FeedRow[] {
  return events.flatMap((e) => {
    const notice = (playerId: string | null, type: string, data: Record<string, unknown>): FeedRow[] =>
      playerId === null
        ? []
        : [{ playerId, dedupeKey: `challenge ${c.challengeId} ${e.seq}`, type, data: { challengeId: c.challengeId, kind: c.kind, by, ...data }, createdAt: new Date(e.createdAt) }];
    switch (e.type) {
      case 'ChallengeIssued':
        return notice(c.challengedId, 'challenge.received', { message: c.message, expiresAt: c.expiresAt });
      case 'ChallengeAccepted':
        return notice(c.challengerId, 'challenge.accepted', { gameId: c.gameId });
      case 'ChallengeDeclined':
        return notice(c.challengerId, 'challenge.declined', { reason: c.reason });
      case 'ChallengeCancelled':
        return notice(c.challengedId, 'challenge.cancelled', {});
      default:
        return [];
    }
  });
}

/**
 * Challenges between players (docs/players.md, "Challenges"), through the one command path (the
 * referee's gate, a queue per challenge, an expected version: of two acceptances one is stored).
 *
 * Accepting spans two aggregates, a workflow: the acceptance is stored first with the id of the
 * game it creates, then the game is created with that id (a creation that finds the game stored
 * already leaves it as it is). A process stopped between the two left an accepted challenge
 * without its game: the acceptor's retry of acceptChallenge creates it, and so does the catch-up
 * at start-up. No read creates anything.
 */
@Injectable()
export class ChallengeService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Challenges');
  private readonly held: HeldStreams<LiveChallenge, ChallengeBatch>;
  private readonly path: StreamCommands<LiveChallenge, ChallengeBatch, ChallengeStep, AdvancedChallenge>;
  private catchingUp: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly store: ChallengeStore,
    private readonly referee: RefereeService,
    private readonly keys: KeyDirectory,
    private readonly registry: EngineRegistry,
    private readonly feed: PlayerFeedStore,
    @Optional() private readonly consequences: ChallengeConsequences = new ChallengeConsequences(),
    @Optional() private readonly clock: Clock = new SystemClock(),
  ) {
    // Every read compares the held stream with its stored version: another instance may have answered it.
    this.held = new HeldStreams(challengeStreams(store), { running: 1000, over: 100, readsStoredVersion: true });
    this.path = new StreamCommands(referee.gate, this.held, new ChallengeWriter(store, feed, this.consequences), 'the challenge kept changing; try again');
  }

  /** Creates the games of accepted challenges a stopped process left without one, in the background. */
  onApplicationBootstrap(): void {
    if (!this.referee.background) return;
    this.catchingUp = this.catchUp().finally(() => {
      this.catchingUp = null;
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    await this.catchingUp;
  }

  /** Every accepted challenge's missing game, created. */
  async catchUp(): Promise<void> {
    try {
      for (let ids = await this.store.acceptedWithoutGame(CATCH_UP_BATCH); ids.length > 0 && !this.stopped; ids = await this.store.acceptedWithoutGame(CATCH_UP_BATCH)) {
        let created = 0;
        for (const id of ids) {
          if (this.stopped) return;
          await this.gameOf(await this.held.get(id))
            .then(() => created++)
            .catch((err: Error) => this.logger.warn(`challenge ${id}: its game was not created (${err.message}); the next start-up tries again`));
        }
        // Every one failed: leave them to the next start-up rather than loop.
        if (created === 0) return;
      }
    } catch (err) {
      this.logger.warn(`could not create the games of accepted challenges (${(err as Error).message}); the acceptors' retries or the next start-up create them`);
    }
  }

  /** The caller's player challenges `input.to` (or, without, anyone): the game offered is checked now, as createGame would check it. */
  async issue(holder: KeyHolder | null, input: IssueChallengeInput): Promise<LiveChallenge> {
    const challengerId = playerOf(holder);
    if (input.to !== null && input.to !== challengerId && !(await this.keys.player(input.to))) throw new RefereeError('NOT_FOUND', `no player with id ${input.to}`);
    const game = unwrap(checkChallengeGame(this.registry, input.kind, input.ruleset, input.timeControl, input.rated === true));
    return this.referee.gate.run(async () => {
      const id = `ch-${randomBytes(9).toString('base64url')}`;
      const command: ChallengeCommand = {
        type: 'IssueChallenge',
        challengerId,
        challengedId: input.to,
        game,
        seat: input.seat,
        message: input.message,
        expiresInSeconds: input.expiresInSeconds,
      };
      const decided = unwrap(decideChallenge(id, null, command, this.now()));
      const events = chainEvents(id, emptyHead(), decided.drafts);
      const challenge: LiveChallenge = { ...decided.state, ...advanceHead(emptyHead(), events, challengeAggregate.follows) };
      const { challengedId, kind, status, expiresAt, gameId } = challenge;
      const notices = noticesOf(challenge, events, await this.actor(challengerId));
      const row = { id, challengerId, challengedId, kind, status, expiresAt: new Date(expiresAt), gameId, version: challenge.version, headHash: challenge.lastHash };
      await this.consequences.appendWith(null, { challenge, notices }, events, (rows) => this.store.create(row, events, notices, rows));
      this.feed.written(notices);
      this.held.remember(challenge);
      this.logger.log(`challenge ${id} issued by ${challengerId} to ${challengedId ?? 'anyone'} (${kind})`);
      return challenge;
    });
  }

  /** The caller's player accepts: the acceptance is stored with the new game's id, then the game is created with both seats bound. A retry by the same player answers the same game. */
  async accept(holder: KeyHolder | null, challengeId: string): Promise<{ challenge: LiveChallenge; game: GameSnapshot }> {
    const playerId = playerOf(holder);
    const challenge = await this.command(challengeId, { type: 'AcceptChallenge', playerId, gameId: newGameId(), coin: randomBytes(1)[0] & 1 });
    return { challenge, game: await this.gameOf(challenge) };
  }

  decline(holder: KeyHolder | null, challengeId: string, reason: string | null): Promise<LiveChallenge> {
    return this.command(challengeId, { type: 'DeclineChallenge', playerId: playerOf(holder), reason });
  }

  cancel(holder: KeyHolder | null, challengeId: string): Promise<LiveChallenge> {
    return this.command(challengeId, { type: 'CancelChallenge', playerId: playerOf(holder) });
  }

  /** One challenge, to its challenger, the player challenged, or (an open one) any player. */
  async challenge(holder: KeyHolder | null, challengeId: string): Promise<LiveChallenge> {
    const playerId = playerOf(holder);
    const c = await this.held.get(challengeId);
    if (c.challengedId !== null && c.challengerId !== playerId && c.challengedId !== playerId) throw new RefereeError('NOT_FOUND', `no challenge with id ${challengeId}`);
    return c;
  }

  /** A page of the caller's incoming or outgoing challenges, or of the open ones; newest first. */
  async page(holder: KeyHolder | null, which: 'incoming' | 'outgoing' | 'open', args: ChallengePageArgs): Promise<ChallengePage> {
    const playerId = playerOf(holder);
    const first = args.first ?? DEFAULT_PAGE;
    if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE) throw new RefereeError('INVALID_INPUT', `first must be 1 to ${MAX_PAGE}`);
    const status = args.status ?? undefined;
    if (status !== undefined && !STATUSES.includes(status)) throw new RefereeError('INVALID_INPUT', `status must be one of ${STATUSES.join(', ')}`);
    const list: ChallengeList = which === 'incoming' ? { incoming: playerId } : which === 'outgoing' ? { outgoing: playerId } : { open: true };
    const filter: ChallengeFilter = { status, now: this.clock.now() };
    const rows = await this.store.page(list, filter, first + 1, args.after ? cursorOf(args.after) : undefined);
    const items = await Promise.all(rows.slice(0, first).map(async (r) => ({ challenge: await this.held.get(r.id), cursor: cursorText({ at: r.createdAt.toISOString(), id: r.id }) })));
    return { items, endCursor: items.at(-1)?.cursor ?? null, hasNextPage: rows.length > first };
  }

  /** The challenge's status now (an open one past its expiry is EXPIRED). */
  statusOf(c: ChallengeState): ChallengeStatus {
    return statusAt(c, this.now());
  }

  private now(): string {
    return this.clock.now().toISOString();
  }

  /** A player as its notices name it. */
  private async actor(playerId: string): Promise<Actor> {
    return { id: playerId, name: (await this.keys.player(playerId))?.name ?? null };
  }

  private async command(challengeId: string, command: Exclude<ChallengeCommand, { type: 'IssueChallenge' }>): Promise<LiveChallenge> {
    const actor = await this.actor(command.playerId);
    const answered = await this.path.run(challengeId, {
      decide: (c) => {
        const decided = decideChallenge(challengeId, c, command, this.now());
        return decided.ok ? { ok: true, value: { decision: decided.value, actor } } : decided;
      },
      accepted: ({ next, events }) => ({ next, stored: events.length > 0 }),
    });
    if (answered.stored) this.logger.log(`challenge ${challengeId}: ${answered.next.status.toLowerCase()} by ${command.playerId}`);
    return answered.next;
  }

  /**
   * The accepted challenge's game: read, or created with the id its acceptance stored (seats as
   * the acceptance drew them, each bound to its player). A creation another process made first
   * is read.
   */
  private async gameOf(c: ChallengeState): Promise<GameSnapshot> {
    const { gameId, challengerSeat, acceptedBy } = c;
    if (gameId === null || challengerSeat === null || acceptedBy === null) throw new RefereeError('INVALID_INPUT', `challenge ${c.challengeId} was not accepted`);
    const stored = await this.existing(gameId);
    if (stored) return stored;
    const seated = challengerSeat === 0 ? [c.challengerId, acceptedBy] : [acceptedBy, c.challengerId];
    const seats = await Promise.all(
      seated.map(async (player) => {
        const { name } = await this.actor(player);
        return { name: name !== null && name.length <= SEAT_NAME_MAX ? name : null, player };
      }),
    );
    try {
      const { game } = await this.referee.createGame({ gameId, kind: c.kind, ruleset: c.ruleset, seats, timeControl: timeControlInput(c.timeControl), rated: c.rated === true });
      this.logger.log(`challenge ${c.challengeId}: game ${gameId} created`);
      return game;
    } catch (err) {
      const raced = await this.existing(gameId);
      if (raced) return raced;
      throw err;
    }
  }

  private async existing(gameId: string): Promise<GameSnapshot | null> {
    try {
      return await this.referee.game(gameId);
    } catch (err) {
      if (err instanceof RefereeError && err.code === 'NOT_FOUND') return null;
      throw err;
    }
  }
}

/** The player whose key calls: challenges are a player's (UNAUTHORIZED for an app's key or none). */
function playerOf(holder: KeyHolder | null): string {
  if (holder?.owner !== 'player') throw new RefereeError('UNAUTHORIZED', "challenges need a player's key as a Bearer token");
  return holder.ownerId;
}

const cursorText = (c: ChallengeCursor) => Buffer.from(JSON.stringify([c.at, c.id])).toString('base64url');

function cursorOf(text: string): ChallengeCursor {
  try {
    const [at, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    if (typeof at === 'string' && typeof id === 'string' && !Number.isNaN(Date.parse(at))) return { at, id };
  } catch {
    // answered below
  }
  throw new RefereeError('INVALID_INPUT', 'after must be a cursor an earlier page answered');
}
