import { Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { checkValues, type Engine, type Outcome, type ReplayEntry, type Result, type Viewer } from '../engines/kit/index.js';
import { MetricsService } from '../ops/metrics.service.js';
import { hashOf, sha256Hex } from './canonical.js';
import { EngineRegistry } from './engine-registry.js';
import { RefereeError } from './errors.js';
import { AppendConflict, EventStore, type GameFilter, type GameRow, type GameStatus, type SeatRow } from './event-store.js';
import { chainEvents, CoreEvents, isChanceEvent, type ChancePayload, type StoredEvent } from './events.js';
import { clientSeedMix, FairSource, newServerSeed, seedCommitment } from './fairness.js';
import { foldEvents, genesis, StreamError, viewEvent, type FoldedGame, type GameCreatedPayload } from './fold.js';
import { buildBundle, verifyStream, type Bundle, type Verdict } from './verify.js';

/** A game as the referee holds it in memory: the folded stream plus its secrets and seats. */
export interface LiveGame extends FoldedGame {
  status: GameStatus;
  serverSeed: string;
  supplied: number[][];
  seats: SeatRow[];
  createdAt: Date;
}

/** One stored event with the states around it, so it can be served to each viewer. */
export interface Step {
  event: StoredEvent;
  before: unknown;
  after: unknown;
}

export interface Appended {
  gameId: string;
  game: LiveGame;
  steps: Step[];
}

export interface SeatInput {
  name?: string | null;
  clientSeed?: string | null;
  /** Leave the seat open for someone to join later (no token now). */
  open?: boolean;
}

export interface CreateGameInput {
  kind: string;
  ruleset?: unknown;
  seats?: SeatInput[];
  /** Chance values to use, in order, instead of fair draws (an organizer's deal). */
  suppliedChance?: number[][];
}

export interface Accepted {
  accepted: true;
  gameId: string;
  seat: number;
  version: number;
  status: GameStatus;
  events: StoredEvent[];
  outcome: Outcome | null;
}
export interface Rejected {
  accepted: false;
  code: string;
  message: string;
  version: number | null;
}
export type MoveResult = Accepted | Rejected;

const MAX_LIVE_GAMES = 5000;
const MOVE_ID = /^[A-Za-z0-9_.:-]{1,128}$/;
const MAX_NAME = 64;
const MAX_CLIENT_SEED = 256;

export const newToken = () => `arb_${randomBytes(24).toString('base64url')}`;
export const tokenHash = (token: string) => sha256Hex(token);

/**
 * The generic referee: game lifecycle, moves, randomness, views and audit for every engine.
 * Commands on one game run one at a time in this process (a per-game queue); across processes
 * the event store's compare-and-set decides. Nothing is acknowledged before it is stored.
 */
@Injectable()
export class RefereeService {
  private readonly logger = new Logger('Referee');
  private readonly cache = new Map<string, LiveGame>();
  private readonly locks = new Map<string, Promise<void>>();
  private readonly tokens = new Map<string, { gameId: string; seat: number }>();
  /** Emits an Appended under the game's id for every stored batch of its events. */
  readonly bus = new EventEmitter().setMaxListeners(0);
  private draining = false;
  private inFlight = 0;
  private drained: (() => void) | null = null;

  constructor(
    private readonly store: EventStore,
    readonly registry: EngineRegistry,
    private readonly metrics: MetricsService,
  ) {}

  // ---------------------------------------------------------------- commands

  async createGame(input: CreateGameInput): Promise<{ game: LiveGame; tokens: { seat: number; token: string }[] }> {
    return this.command(async () => {
      const engine = this.engineOf(input.kind);
      const ruleset = unwrap(engine.parseRuleset(input.ruleset ?? {}));
      const seatCount = engine.seatCount(ruleset);
      const seatInputs: SeatInput[] = input.seats ?? Array.from({ length: seatCount }, () => ({}));
      if (seatInputs.length !== seatCount) throw new RefereeError('INVALID_INPUT', `this ruleset needs exactly ${seatCount} seats, got ${seatInputs.length}`);
      const supplied = input.suppliedChance ?? [];
      if (!Array.isArray(supplied) || supplied.some((v) => !Array.isArray(v) || v.some((x) => !Number.isInteger(x)))) {
        throw new RefereeError('INVALID_INPUT', 'suppliedChance must be a list of lists of whole numbers');
      }
      const id = randomBytes(9).toString('base64url');
      const serverSeed = newServerSeed();
      const tokens: { seat: number; token: string }[] = [];
      const seats: SeatRow[] = seatInputs.map((s, index) => {
        const name = checkName(s.name);
        const clientSeed = checkClientSeed(s.clientSeed);
        if (s.open) return { index, name: null, tokenHash: null, clientSeed: null };
        const token = newToken();
        tokens.push({ seat: index, token });
        return { index, name, tokenHash: tokenHash(token), clientSeed };
      });
      const randomSource: 'fair' | 'supplied' = supplied.length > 0 ? 'supplied' : 'fair';
      const created = {
        kind: engine.kind,
        ruleset,
        rulesetHash: hashOf(ruleset),
        seats: seats.map((s) => ({ name: s.name })),
        seedCommitment: seedCommitment(serverSeed),
        randomSource,
        imported: false,
      };
      const game = this.genesis(id, engine, created, serverSeed, supplied, seats);
      const drafts = [draft(CoreEvents.GameCreated, null, created, game.state)];
      const after = seats.every((s) => s.tokenHash) ? this.start(game, drafts) : game;
      const { stored, events, steps } = this.advance(after, game, drafts);
      await this.store.createGame(
        {
          id,
          kind: engine.kind,
          status: stored.status,
          version: stored.version,
          ruleset,
          rulesetHash: created.rulesetHash,
          seedCommitment: created.seedCommitment,
          serverSeed,
          randomSource,
          suppliedChance: supplied.length > 0 ? supplied : null,
          imported: false,
          result: stored.outcome,
        },
        seats,
        events,
      );
      for (const t of tokens) this.tokens.set(tokenHash(t.token), { gameId: id, seat: t.seat });
      this.remember(stored);
      this.metrics.inc('arbiter_games_created_total', { kind: engine.kind });
      this.logger.log(`game ${id} created (${engine.kind}, ${seatCount} seats, ${tokens.length} taken)`);
      this.publish(id, stored, steps);
      return { game: stored, tokens };
    });
  }

  async join(gameId: string, input: { seat?: number | null; name?: string | null; clientSeed?: string | null }): Promise<{ game: LiveGame; seat: number; token: string }> {
    return this.command(() =>
      this.withLock(gameId, async () => {
        const game = await this.live(gameId);
        if (game.status !== 'WAITING') throw new RefereeError('SEAT_TAKEN', 'every seat of this game is taken');
        const open = game.seats.filter((s) => !s.tokenHash).map((s) => s.index);
        const seat = input.seat ?? open[0];
        if (!Number.isInteger(seat) || seat < 0 || seat >= game.seatCount) throw new RefereeError('INVALID_INPUT', `seat must be between 0 and ${game.seatCount - 1}`);
        if (!open.includes(seat)) throw new RefereeError('SEAT_TAKEN', `seat ${seat} is taken`);
        const name = checkName(input.name);
        const clientSeed = checkClientSeed(input.clientSeed);
        const token = newToken();
        const seats = game.seats.map((s) => (s.index === seat ? { index: seat, name, tokenHash: tokenHash(token), clientSeed } : s));
        const joined = { ...game, seats, seatNames: game.seatNames.map((n, i) => (i === seat ? name : n)) };
        const drafts = [draft(CoreEvents.SeatJoined, null, { seat, name }, game.state)];
        const after = seats.every((s) => s.tokenHash) ? this.start(joined, drafts) : joined;
        const { stored, events, steps } = this.advance(after, game, drafts);
        try {
          await this.store.join(gameId, events, head(stored), { index: seat, name, tokenHash: tokenHash(token), clientSeed });
        } catch (err) {
          if (err instanceof AppendConflict) {
            this.cache.delete(gameId);
            throw new RefereeError('VERSION_CONFLICT', 'the game changed while joining; try again');
          }
          throw err;
        }
        this.tokens.set(tokenHash(token), { gameId, seat });
        this.remember(stored);
        this.publish(gameId, stored, steps);
        return { game: stored, seat, token };
      }),
    );
  }

  /**
   * A seat's action. Always answers with a typed result; never throws for a rule or input problem.
   * `kind`, when given, refuses a game of another kind (a typed mutation names its game).
   */
  act(gameId: string, token: string | null, moveId: unknown, action: unknown, expectedVersion?: number | null, kind?: string): Promise<MoveResult> {
    return this.move(gameId, token, moveId, expectedVersion, { kind: 'action', action }, kind, (game, seat) => {
      const parsed = game.engine.parseAction(action);
      if (!parsed.ok) return parsed;
      const next = game.engine.apply(game.state, seat, parsed.value);
      return next.ok ? { ok: true, value: { state: next.value, type: CoreEvents.ActionTaken, payload: { action: parsed.value } } } : next;
    });
  }

  /** The seat concedes the whole game. */
  resign(gameId: string, token: string | null, moveId: unknown, expectedVersion?: number | null): Promise<MoveResult> {
    return this.move(gameId, token, moveId, expectedVersion, { kind: 'resign' }, undefined, (game, seat) => {
      const next = game.engine.resign(game.state, seat);
      return next.ok ? { ok: true, value: { state: next.value, type: CoreEvents.Resigned, payload: {} } } : next;
    });
  }

  private async move(
    gameId: string,
    token: string | null,
    moveId: unknown,
    expectedVersion: number | null | undefined,
    body: unknown,
    expectedKind: string | undefined,
    decide: (game: LiveGame, seat: number) => Result<{ state: unknown; type: string; payload: Record<string, unknown> }>,
  ): Promise<MoveResult> {
    const started = performance.now();
    let kind = 'unknown';
    const reject = (code: string, message: string, version: number | null = null): Rejected => {
      this.metrics.inc('arbiter_moves_rejected_total', { kind, code });
      return { accepted: false, code, message, version };
    };
    try {
      return await this.command(async () => {
        if (typeof moveId !== 'string' || !MOVE_ID.test(moveId)) return reject('INVALID_INPUT', 'moveId must be 1-128 characters: letters, digits, _ . : -');
        if (expectedVersion !== undefined && expectedVersion !== null && (!Number.isInteger(expectedVersion) || expectedVersion < 0)) {
          return reject('INVALID_INPUT', 'expectedVersion must be a whole number');
        }
        // The game's kind first: a typed move for another game says so before anything else.
        if (expectedKind) await this.game(gameId, expectedKind);
        const seat = await this.seatOf(gameId, token);
        return this.withLock(gameId, async () => {
          // Another instance may have moved this game since we cached it. A refusal is confirmed
          // against the stored version first, and a lost race is decided once more on fresh state.
          for (let attempt = 1; ; attempt++) {
            const cached = this.cache.has(gameId);
            const game = await this.live(gameId);
            kind = game.kind;
            const refuse = async (code: string, message: string): Promise<Rejected | null> => {
              if (cached && attempt === 1 && (await this.store.version(gameId)) !== game.version) {
                this.cache.delete(gameId);
                return null;
              }
              return reject(code, message, game.version);
            };
            const bodyHash = hashOf(body);
            const previous = game.moves.get(moveId);
            if (previous) {
              if (previous.bodyHash !== bodyHash) return reject('MOVE_ID_REUSED', `move id ${moveId} was already used for a different move`, game.version);
              return this.replayResult(game, seat, previous);
            }
            let refusal: [code: string, message: string] | null = null;
            let decided: ReturnType<typeof decide> | null = null;
            if (game.status === 'WAITING') refusal = ['GAME_NOT_STARTED', 'the game waits for seats to be taken'];
            else if (game.status === 'FINISHED') refusal = ['GAME_OVER', 'the game is over'];
            else if (expectedVersion !== undefined && expectedVersion !== null && expectedVersion !== game.version) {
              refusal = ['VERSION_CONFLICT', `expected version ${expectedVersion}, but the game is at version ${game.version}`];
            } else {
              decided = decide(game, seat);
              if (!decided.ok) refusal = [decided.error.code, decided.error.message];
            }
            if (refusal || !decided?.ok) {
              const answer = await refuse(...refusal!);
              if (answer === null) continue;
              return answer;
            }
            const { state, type, payload } = decided.value;
            const first = draft(type, seat, payload, game.state, state);
            first.draft.moveId = moveId;
            first.draft.bodyHash = bodyHash;
            const drafts = [first];
            const after = this.settle({ ...game, state }, drafts);
            const { stored, events, steps } = this.advance(after, game, drafts);
            try {
              await this.store.append(gameId, events, head(stored));
            } catch (err) {
              // Whatever happened, the stored stream is the truth: reload it on next use.
              this.cache.delete(gameId);
              if (!(err instanceof AppendConflict)) throw err;
              if (attempt === 1) continue;
              return reject('VERSION_CONFLICT', 'another move was stored first; reload and try again', game.version);
            }
            this.remember(stored);
            this.publish(gameId, stored, steps);
            this.metrics.inc('arbiter_moves_accepted_total', { kind });
            this.metrics.observe('arbiter_move_duration_seconds', { kind }, (performance.now() - started) / 1000);
            return {
              accepted: true,
              gameId,
              seat,
              version: stored.version,
              status: stored.status,
              events: steps.map((s) => viewEvent(stored, s.event, s.before, s.after, seat)),
              outcome: stored.outcome,
            };
          }
        });
      });
    } catch (err) {
      if (err instanceof RefereeError) return reject(err.code, err.message);
      throw err;
    }
  }

  /** A safe retry: the original result, as stored. */
  private async replayResult(game: LiveGame, seat: number, move: { fromSeq: number; toSeq: number }): Promise<Accepted> {
    const events = await this.servedEvents(game, move.fromSeq - 1, seat, move.toSeq);
    return { accepted: true, gameId: game.gameId, seat, version: move.toSeq, status: game.status, events, outcome: game.outcome };
  }

  async importRecord(kind: string, text: string): Promise<{ game: LiveGame; tokens: { seat: number; token: string }[] }> {
    return this.command(async () => {
      const engine = this.engineOf(kind);
      if (!engine.importRecord) throw new RefereeError('INVALID_INPUT', `${kind} has no record format to import`);
      const record = unwrap(engine.importRecord(text));
      const ruleset = unwrap(engine.parseRuleset(record.ruleset));
      const seatCount = engine.seatCount(ruleset);
      const id = randomBytes(9).toString('base64url');
      const serverSeed = newServerSeed();
      const seats: SeatRow[] = [];
      const tokens: { seat: number; token: string }[] = [];
      for (let index = 0; index < seatCount; index++) {
        const token = newToken();
        tokens.push({ seat: index, token });
        seats.push({ index, name: checkName(record.seatNames?.[index] ?? null), tokenHash: tokenHash(token), clientSeed: null });
      }
      const created = {
        kind,
        ruleset,
        rulesetHash: hashOf(ruleset),
        seats: seats.map((s) => ({ name: s.name })),
        seedCommitment: seedCommitment(serverSeed),
        randomSource: 'supplied' as const,
        imported: true,
      };
      const game = this.genesis(id, engine, created, serverSeed, [], seats);
      const clientSeeds = seats.map(() => null);
      const drafts: Pending[] = [
        draft(CoreEvents.GameCreated, null, created, game.state),
        draft(CoreEvents.GameStarted, null, { clientSeeds, mix: clientSeedMix(clientSeeds) }, game.state),
      ];
      let state = game.state;
      record.entries.forEach((entry: ReplayEntry, i: number) => {
        const where = record.labels?.[i] ?? `entry ${i + 1}`;
        const pending = engine.pendingChance(state);
        if (entry.kind === 'chance') {
          if (!pending) throw new RefereeError('ILLEGAL_MOVE', `${where}: the record gives random values where the rules call for none`);
          const bad = checkValues(pending.ranges, entry.values);
          if (bad) throw new RefereeError('ILLEGAL_MOVE', `${where}: ${bad}`);
          const next = unwrapAt(where, engine.resolveChance(state, entry.values));
          drafts.push(draft(pending.label, null, { chance: { ranges: pending.ranges, values: entry.values, source: 'supplied', ...(pending.hidden ? { hidden: true } : {}) } }, state, next));
          state = next;
        } else if (pending) {
          throw new RefereeError('ILLEGAL_MOVE', `${where}: the record is missing the ${pending.label} before this move`);
        } else if (entry.kind === 'resign') {
          const next = unwrapAt(where, engine.resign(state, entry.seat));
          drafts.push(draft(CoreEvents.Resigned, entry.seat, {}, state, next));
          state = next;
        } else {
          const action = unwrapAt(where, engine.parseAction(entry.action));
          const next = unwrapAt(where, engine.apply(state, entry.seat, action));
          drafts.push(draft(CoreEvents.ActionTaken, entry.seat, { action }, state, next));
          state = next;
        }
      });
      const outcome = engine.outcome(state);
      if (outcome) drafts.push(draft(CoreEvents.GameEnded, null, { outcome }, state), draft(CoreEvents.SeedRevealed, null, { serverSeed }, state));
      const events = chainEvents(id, game, drafts.map((d) => d.draft));
      // Fold what will be stored, so an import is held to exactly the checks of a live game.
      const folded = this.toLive(foldEvents(this.registry, id, events, { serverSeed }), serverSeed, [], seats, new Date());
      await this.store.createGame(
        {
          id,
          kind,
          status: folded.status,
          version: folded.version,
          ruleset,
          rulesetHash: created.rulesetHash,
          seedCommitment: created.seedCommitment,
          serverSeed,
          randomSource: 'supplied',
          suppliedChance: null,
          imported: true,
          result: folded.outcome,
        },
        seats,
        events,
      );
      for (const t of tokens) this.tokens.set(tokenHash(t.token), { gameId: id, seat: t.seat });
      this.remember(folded);
      this.logger.log(`game ${id} imported (${kind}, ${events.length} events, ${folded.status})`);
      return { game: folded, tokens };
    });
  }

  // ---------------------------------------------------------------- queries

  /** A game by id; with `kind`, a game of another kind is refused (INVALID_INPUT). */
  async game(gameId: string, kind?: string): Promise<LiveGame> {
    const game = await this.live(gameId);
    if (kind && game.kind !== kind) throw new RefereeError('INVALID_INPUT', `game ${gameId} is a ${game.kind} game, not ${kind}`);
    return game;
  }

  /** Who the bearer of `token` is in this game: a seat, or a spectator without a token. */
  async viewerOf(gameId: string, token: string | null): Promise<Viewer> {
    if (!token) return 'spectator';
    return this.seatOf(gameId, token);
  }

  view(game: LiveGame, viewer: Viewer): unknown {
    return game.engine.view(game.state, viewer);
  }

  legalActions(game: LiveGame, viewer: Viewer): unknown[] {
    if (viewer === 'spectator' || game.status !== 'ACTIVE') return [];
    return game.engine.legalActions(game.state, viewer);
  }

  async events(gameId: string, afterSeq: number, viewer: Viewer, limit = 1000): Promise<StoredEvent[]> {
    const game = await this.live(gameId);
    return this.servedEvents(game, afterSeq, viewer, Math.min(game.version, afterSeq + limit));
  }

  /** Events in (afterSeq, untilSeq] as `viewer` may see them. */
  private async servedEvents(game: LiveGame, afterSeq: number, viewer: Viewer, untilSeq: number): Promise<StoredEvent[]> {
    if (!hidesInformation(game.engine) || game.ended) return this.store.events(game.gameId, afterSeq, undefined, untilSeq);
    // Hidden information: fold from the start to know each event's surrounding states.
    const all = await this.store.events(game.gameId, 0, undefined, untilSeq);
    const served: StoredEvent[] = [];
    foldEvents(this.registry, game.gameId, all, {
      onEvent: (e, before, after) => {
        if (e.seq > afterSeq) served.push(viewEvent(game, e, before, after, viewer));
      },
    });
    return served;
  }

  /** The view at any point of the game's history (replay). */
  async stateAt(gameId: string, seq: number, viewer: Viewer): Promise<{ seq: number; view: unknown; outcome: Outcome | null }> {
    const game = await this.live(gameId);
    if (!Number.isInteger(seq) || seq < 1 || seq > game.version) throw new RefereeError('INVALID_INPUT', `seq must be between 1 and ${game.version}`);
    const events = await this.store.events(gameId, 0, undefined, seq);
    const folded = foldEvents(this.registry, gameId, events);
    return { seq, view: folded.engine.view(folded.state, viewer), outcome: folded.engine.outcome(folded.state) };
  }

  async list(filter: GameFilter, first: number, after?: string | null): Promise<{ games: (GameRow & { seats: SeatRow[] })[]; endCursor: string | null; hasNextPage: boolean }> {
    if (!Number.isInteger(first) || first < 1 || first > 100) throw new RefereeError('INVALID_INPUT', 'first must be between 1 and 100');
    const cursor = after ? decodeCursor(after) : undefined;
    const rows = await this.store.list(filter, first + 1, cursor);
    const games = rows.slice(0, first);
    const last = games.at(-1);
    return { games, endCursor: last ? encodeCursor(last) : null, hasNextPage: rows.length > first };
  }

  /** A self-contained, verifiable export of the whole game. */
  async bundle(gameId: string): Promise<Bundle> {
    const game = await this.live(gameId);
    if (!game.ended && hidesInformation(game.engine)) {
      throw new RefereeError('GAME_NOT_FINISHED', 'this game has hidden information; its bundle is available when it ends');
    }
    return buildBundle(game, await this.store.events(gameId));
  }

  /** Recomputes the chain, every random outcome (with the secret seed) and every move. */
  async verify(gameId: string): Promise<Verdict> {
    const game = await this.live(gameId);
    const events = await this.store.events(gameId);
    return verifyStream(this.registry, gameId, events, { serverSeed: game.serverSeed, expectedCommitment: game.seedCommitment });
  }

  async record(gameId: string): Promise<{ contentType: string; text: string }> {
    const game = await this.live(gameId);
    if (!game.engine.exportRecord) throw new RefereeError('INVALID_INPUT', `${game.kind} has no record format`);
    if (!game.ended && hidesInformation(game.engine)) {
      throw new RefereeError('GAME_NOT_FINISHED', 'this game has hidden information; its record is available when it ends');
    }
    const entries: ReplayEntry[] = [];
    for (const e of await this.store.events(gameId)) {
      if (isChanceEvent(e)) entries.push({ kind: 'chance', values: (e.payload as unknown as ChancePayload).chance.values });
      else if (e.type === CoreEvents.ActionTaken) entries.push({ kind: 'action', seat: e.actor!, action: (e.payload as { action: unknown }).action });
      else if (e.type === CoreEvents.Resigned) entries.push({ kind: 'resign', seat: e.actor! });
    }
    const names = game.seatNames.map((n, i) => n ?? `Seat ${i + 1}`);
    return { contentType: game.engine.recordContentType ?? 'text/plain', text: game.engine.exportRecord(game.ruleset, entries, names) };
  }

  // ---------------------------------------------------------------- lifecycle

  /** Stop taking commands and wait for the ones in flight (graceful shutdown). */
  async drain(): Promise<void> {
    this.draining = true;
    if (this.inFlight === 0) return;
    await new Promise<void>((resolve) => (this.drained = resolve));
  }

  stats(): Record<string, number> {
    return { arbiter_live_games: this.cache.size, arbiter_commands_in_flight: this.inFlight };
  }

  // ---------------------------------------------------------------- internals

  private async command<T>(fn: () => Promise<T>): Promise<T> {
    if (this.draining) throw new RefereeError('SHUTTING_DOWN', 'the referee is shutting down; try again shortly');
    this.inFlight++;
    try {
      return await fn();
    } finally {
      if (--this.inFlight === 0 && this.drained) this.drained();
    }
  }

  private async withLock<T>(gameId: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(gameId) ?? Promise.resolve();
    let release!: () => void;
    const mine = previous.then(() => new Promise<void>((r) => (release = r)));
    this.locks.set(gameId, mine);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.locks.get(gameId) === mine) this.locks.delete(gameId);
    }
  }

  private engineOf(kind: string): Engine {
    const engine = this.registry.get(kind);
    if (!engine) throw new RefereeError('INVALID_INPUT', `unknown game kind "${kind}"; this referee plays: ${this.registry.kinds().join(', ')}`);
    return engine;
  }

  private async seatOf(gameId: string, token: string | null): Promise<number> {
    if (!token) throw new RefereeError('UNAUTHORIZED', 'acting needs the seat\'s token as a Bearer token');
    const hash = tokenHash(token);
    let owner = this.tokens.get(hash);
    if (!owner) {
      const row = await this.store.seatByTokenHash(hash);
      if (row) this.tokens.set(hash, (owner = { gameId: row.gameId, seat: row.index }));
    }
    if (!owner || owner.gameId !== gameId) throw new RefereeError('UNAUTHORIZED', 'this token is not a seat of this game');
    return owner.seat;
  }

  /** The game's current state, from memory or rebuilt from its stream. */
  private async live(gameId: string): Promise<LiveGame> {
    const cached = this.cache.get(gameId);
    if (cached) {
      this.cache.delete(gameId);
      this.cache.set(gameId, cached);
      return cached;
    }
    if (typeof gameId !== 'string' || gameId.length > 64) throw new RefereeError('NOT_FOUND', 'no such game');
    const row = await this.store.game(gameId);
    if (!row) throw new RefereeError('NOT_FOUND', `no game with id ${gameId}`);
    const events = await this.store.events(gameId);
    let folded: FoldedGame;
    try {
      folded = foldEvents(this.registry, gameId, events, { checkHashes: true, serverSeed: row.serverSeed });
    } catch (err) {
      if (err instanceof StreamError) {
        this.logger.error(`game ${gameId} failed its integrity check: ${err.message}`);
        throw new RefereeError('INTEGRITY_ERROR', `this game's stored history failed verification at event ${err.seq}; see verifyGame`);
      }
      throw err;
    }
    const game = this.toLive(folded, row.serverSeed, row.suppliedChance ?? [], row.seats, row.createdAt);
    const current = this.cache.get(gameId);
    if (current && current.version >= game.version) return current;
    this.remember(game);
    return game;
  }

  private toLive(folded: FoldedGame, serverSeed: string, supplied: number[][], seats: SeatRow[], createdAt: Date): LiveGame {
    return { ...folded, status: statusOf(folded), serverSeed, supplied, seats, createdAt };
  }

  private remember(game: LiveGame): void {
    this.cache.delete(game.gameId);
    this.cache.set(game.gameId, game);
    if (this.cache.size > MAX_LIVE_GAMES) this.cache.delete(this.cache.keys().next().value!);
  }

  private genesis(id: string, engine: Engine, created: GameCreatedPayload, serverSeed: string, supplied: number[][], seats: SeatRow[]): LiveGame {
    return { ...genesis(id, engine, created), status: 'WAITING', serverSeed, supplied, seats, createdAt: new Date() };
  }

  /** Every seat is taken: mix in the client seeds and draw what the opening needs. */
  private start(game: LiveGame, drafts: Pending[]): LiveGame {
    const clientSeeds = game.seats.map((s) => s.clientSeed);
    const mix = clientSeedMix(clientSeeds);
    drafts.push(draft(CoreEvents.GameStarted, null, { clientSeeds, mix }, game.state));
    return this.settle({ ...game, started: true, mix }, drafts);
  }

  /**
   * Resolves every pending chance (supplied values first, then fair draws) and ends the game
   * when the engine says it is over. Returns the new game; `drafts` gains the events.
   */
  private settle(game: LiveGame, drafts: Pending[]): LiveGame {
    const { engine } = game;
    let state = game.state;
    let suppliedUsed = game.suppliedUsed;
    const source = new FairSource(game.serverSeed, game.gameId, game.mix!, game.counter);
    for (let request = engine.pendingChance(state); request; request = engine.pendingChance(state)) {
      let chance: ChancePayload['chance'];
      if (suppliedUsed < game.supplied.length) {
        const values = game.supplied[suppliedUsed++];
        const bad = checkValues(request.ranges, values);
        if (bad) throw new RefereeError('INVALID_INPUT', `supplied ${request.label} #${suppliedUsed}: ${bad}`);
        chance = { ranges: request.ranges, values, source: 'supplied' };
      } else {
        const drawn = source.draw(request.ranges);
        chance = { ranges: request.ranges, values: drawn.values, source: 'fair', counter: drawn.counter };
      }
      if (request.hidden) chance.hidden = true;
      const next = engine.resolveChance(state, chance.values);
      if (!next.ok) throw new RefereeError(next.error.code, `${request.label}: ${next.error.message}`);
      drafts.push(draft(request.label, null, { chance }, state, next.value));
      state = next.value;
    }
    const outcome = engine.outcome(state);
    const ends = outcome !== null && !game.ended;
    if (ends) drafts.push(draft(CoreEvents.GameEnded, null, { outcome }, state), draft(CoreEvents.SeedRevealed, null, { serverSeed: game.serverSeed }, state));
    return { ...game, state, counter: source.counter, suppliedUsed, ended: game.ended || ends, outcome };
  }

  /** Chains the drafts after `previous` and gives the game as it is once they are stored. */
  private advance(game: LiveGame, previous: { version: number; lastHash: string }, drafts: Pending[]): { stored: LiveGame; events: StoredEvent[]; steps: Step[] } {
    const events = chainEvents(game.gameId, previous, drafts.map((d) => d.draft));
    const last = events.at(-1)!;
    // Shared, not copied (games grow long): a failed append drops the cached game, so these
    // entries never outlive a write that did not happen.
    const moves = game.moves;
    let current: { bodyHash: string; fromSeq: number; toSeq: number } | null = null;
    for (const e of events) {
      if (e.moveId) moves.set(e.moveId, (current = { bodyHash: e.bodyHash ?? '', fromSeq: e.seq, toSeq: e.seq }));
      else if (current) current.toSeq = e.seq;
    }
    const revealed = events.some((e) => e.type === CoreEvents.SeedRevealed);
    const stored: LiveGame = { ...game, moves, version: last.seq, lastHash: last.hash, revealedSeed: revealed ? game.serverSeed : game.revealedSeed };
    stored.status = statusOf(stored);
    const steps = events.map((event, i) => ({ event, before: drafts[i].before, after: drafts[i].after }));
    return { stored, events, steps };
  }

  private publish(gameId: string, game: LiveGame, steps: Step[]): void {
    if (steps.length > 0) this.bus.emit(gameId, { gameId, game, steps } satisfies Appended);
  }
}

// ------------------------------------------------------------------ helpers

type Draft = Omit<StoredEvent, 'seq' | 'prevHash' | 'hash'>;
/** An event about to be stored, with the states around it. */
interface Pending {
  draft: Draft;
  before: unknown;
  after: unknown;
}

function draft(type: string, actor: number | null, payload: Record<string, unknown>, before: unknown, after: unknown = before): Pending {
  return { draft: { type, actor, moveId: null, bodyHash: null, payload, createdAt: new Date().toISOString() }, before, after };
}

function statusOf(game: FoldedGame): GameStatus {
  if (game.ended) return 'FINISHED';
  return game.started ? 'ACTIVE' : 'WAITING';
}

function head(game: LiveGame) {
  return { status: game.status, version: game.version, result: game.outcome };
}

const hidesInformation = (engine: Engine) => Boolean(engine.actionView || engine.chanceView);

function unwrap<T>(r: Result<T>): T {
  if (!r.ok) throw new RefereeError(r.error.code, r.error.message);
  return r.value;
}

function unwrapAt<T>(where: string, r: Result<T>): T {
  if (!r.ok) throw new RefereeError(r.error.code === 'INVALID_INPUT' ? 'INVALID_INPUT' : 'ILLEGAL_MOVE', `${where}: ${r.error.message}`);
  return r.value;
}

function checkName(name: string | null | undefined): string | null {
  if (name === undefined || name === null || name === '') return null;
  if (typeof name !== 'string' || name.length > MAX_NAME) throw new RefereeError('INVALID_INPUT', `a seat name is at most ${MAX_NAME} characters`);
  return name;
}

function checkClientSeed(seed: string | null | undefined): string | null {
  if (seed === undefined || seed === null || seed === '') return null;
  if (typeof seed !== 'string' || seed.length > MAX_CLIENT_SEED) throw new RefereeError('INVALID_INPUT', `a client seed is at most ${MAX_CLIENT_SEED} characters`);
  return seed;
}

function encodeCursor(g: GameRow): string {
  return Buffer.from(`${g.createdAt.toISOString()}|${g.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(at);
  if (!id || Number.isNaN(createdAt.getTime())) throw new RefereeError('INVALID_INPUT', 'after is not a cursor this API gave out');
  return { createdAt, id };
}

