import type { Outcome, Viewer } from '../../engines/kit/index.js';
import { hashOf } from '../core/canonical.js';
import { RefereeError } from '../core/errors.js';
import type { Decision, GameCommand, GameDecider } from '../core/game/commands.js';
import { viewEvent } from '../core/game/views.js';
import type { StoredEvent } from '../core/stream.js';
import { AppendConflict, type EventStore } from '../store/event-store.js';
import type { Clock } from './clock.js';
import type { Consequences } from './consequences.js';
import { type GameSnapshot, snapshotOf } from './game-answer.js';
import type { GameQueries } from './game-queries.js';
import type { LiveGame, LiveGames, Step } from './live-games.js';
import type { RefereeMetrics } from './metrics.port.js';
import { checkClientSeed, checkName, newToken, type SeatTokens, tokenHash, unwrap } from './seat-tokens.js';

export interface Accepted {
  accepted: true;
  gameId: string;
  seat: number;
  version: number;
  status: LiveGame['status'];
  events: StoredEvent[];
  outcome: LiveGame['outcome'];
  /** The game once the move was stored (for a retry: as it is now), for the answer's fields: nothing is loaded again. */
  game: GameSnapshot;
}
export interface Rejected {
  accepted: false;
  code: string;
  message: string;
  version: number | null;
}
export type MoveResult = Accepted | Rejected;

const MOVE_ID = /^[A-Za-z0-9_.:-]{1,128}$/;
/** The `seat` of an answer to a tournament's organizer, who holds none: -1, as the tournament's events name the organizer. */
export const ORGANIZER_SEAT = -1;
const head = (g: LiveGame) => ({ status: g.status, version: g.version, hash: g.lastHash, result: g.outcome });

/**
 * Commands on a running game: gate → lock → load → decide → append at the expected version →
 * publish. Nothing is acknowledged before it is stored. A refusal made from a cached state is
 * confirmed against the stored version, and a lost race is decided once more on fresh state.
 */
export class GameCommands {
  constructor(
    private readonly live: LiveGames,
    private readonly tokens: SeatTokens,
    private readonly store: EventStore,
    private readonly decider: GameDecider,
    private readonly queries: GameQueries,
    private readonly metrics: RefereeMetrics,
    private readonly clock: Clock,
    private readonly consequences: Consequences<LiveGame>,
  ) {}

  /** Every decision's time: the injected clock's. */
  private now(): string {
    return this.clock.now().toISOString();
  }

  /** A seat's move (an action, or conceding the whole game). Always a typed answer for rule or input problems. */
  async move(
    gameId: string,
    token: string | null,
    moveId: unknown,
    expectedVersion: number | null | undefined,
    body: { kind: 'action'; action: unknown } | { kind: 'resign' },
    expectedKind?: string,
  ): Promise<MoveResult> {
    const started = performance.now();
    let kind = 'unknown';
    const reject = (code: string, message: string, version: number | null = null): Rejected => {
      this.metrics.inc('arbiter_moves_rejected_total', { kind, code });
      return { accepted: false, code, message, version };
    };
    try {
      return await this.live.command(async () => {
        if (typeof moveId !== 'string' || !MOVE_ID.test(moveId)) return reject('INVALID_INPUT', 'moveId must be 1-128 characters: letters, digits, _ . : -');
        const expected = expectedVersion ?? null;
        if (expected !== null && (!Number.isInteger(expected) || expected < 0)) return reject('INVALID_INPUT', 'expectedVersion must be a whole number');
        // The game's kind first: a typed move for another game says so before anything else.
        if (expectedKind) await this.queries.game(gameId, expectedKind);
        const seat = await this.tokens.seatOf(gameId, token);
        const bodyHash = hashOf(body);
        const command: GameCommand =
          body.kind === 'resign'
            ? { type: 'Resign', seat, moveId, bodyHash, expectedVersion: expected }
            : { type: 'TakeAction', seat, moveId, bodyHash, action: body.action, expectedVersion: expected };
        return this.live.withLock(gameId, () =>
          this.decideAndStore(gameId, command, {
            answered: async (game) => {
              kind = game.kind;
              const previous = game.commands.get(moveId);
              if (!previous) return null;
              // A retry is answered only to the seat that made the move, with the same body.
              if (previous.actor !== seat) return reject('MOVE_ID_REUSED', `move id ${moveId} was already used in this game; choose another`, game.version);
              if (previous.bodyHash !== bodyHash) return reject('MOVE_ID_REUSED', `move id ${moveId} was already used for a different move`, game.version);
              const events = await this.queries.servedEvents(game, previous.fromSeq - 1, seat, previous.toSeq);
              return { accepted: true, gameId, seat, version: previous.toSeq, status: game.status, events, outcome: game.outcome, game: snapshotOf(game) };
            },
            rejected: reject,
            accepted: (next, steps) => {
              this.metrics.inc('arbiter_moves_accepted_total', { kind });
              this.metrics.observe('arbiter_move_duration_seconds', { kind }, (performance.now() - started) / 1000);
              const served = steps.map((s) => viewEvent(next, s.event, s.before, s.after, seat));
              return { accepted: true, gameId, seat, version: next.version, status: next.status, events: served, outcome: next.outcome, game: snapshotOf(next) };
            },
          }),
        );
      });
    } catch (err) {
      if (err instanceof RefereeError) return reject(err.code, err.message);
      throw err;
    }
  }

  /**
   * Ends a running game with an organizer's outcome (a tournament result entered for it, a
   * forfeit). A game already over is left as it is: this is safe to repeat.
   */
  adjudicate(gameId: string, outcome: Outcome, reason: string): Promise<LiveGame> {
    return this.live.withLock(gameId, async () => {
      for (let attempt = 1; ; attempt++) {
        const game = await this.live.get(gameId);
        if (game.ended) return game;
        const decided = unwrap(this.decider.decide({ type: 'Adjudicate', outcome, reason }, game, { now: this.now(), serverSeed: game.serverSeed, supplied: game.supplied }));
        try {
          return (await this.stored(game, decided)).next;
        } catch (err) {
          if (err instanceof AppendConflict && attempt === 1) continue;
          throw err;
        }
      }
    });
  }

  /**
   * The deadline worker's: `seat` ran out of time at `at` (its deadline), and the events are
   * stamped then. Refused (NOT_TIMED_OUT, GAME_OVER, a conflict) when the deadline is not the
   * game's any more: another instance timed it out first, or the seat moved in time.
   */
  timeOut(gameId: string, seat: number, at: string): Promise<MoveResult> {
    return this.clockCommand(gameId, async () => ({ seat, viewer: 'spectator', command: { type: 'TimeOut', seat, at } }));
  }

  /** Time for `seat` from the seat holding `token`: a vacation it takes (correspondence), or a gift to another seat. */
  addTime(gameId: string, token: string | null, seat: number, ms: number, vacation: boolean): Promise<MoveResult> {
    return this.bySeat(gameId, token, (by) => ({ type: 'AddTime', seat, ms, by, vacation }));
  }

  /** The seat asks to pause the clocks: they pause once every seat asked. */
  pauseClock(gameId: string, token: string | null): Promise<MoveResult> {
    return this.bySeat(gameId, token, (by) => ({ type: 'PauseClock', by }));
  }

  /** The seat asks to resume the seats' pause: the clocks run again once every seat asked. */
  resumeClock(gameId: string, token: string | null): Promise<MoveResult> {
    return this.bySeat(gameId, token, (by) => ({ type: 'ResumeClock', by }));
  }

  /** A clock command of the organizer of the game's tournament (the caller checked its token): answered as to a spectator. */
  byOrganizer(gameId: string, command: GameCommand): Promise<MoveResult> {
    return this.clockCommand(gameId, async () => ({ seat: ORGANIZER_SEAT, viewer: 'spectator', command }));
  }

  private bySeat(gameId: string, token: string | null, command: (by: number) => GameCommand): Promise<MoveResult> {
    return this.clockCommand(gameId, async () => {
      const by = await this.tokens.seatOf(gameId, token);
      return { seat: by, viewer: by, command: command(by) };
    });
  }

  /** A clock command, as `move` runs a move, but without a move id: each is decided against the game as stored. Refusals are typed answers. */
  private clockCommand(gameId: string, actor: () => Promise<{ seat: number; viewer: Viewer; command: GameCommand }>): Promise<MoveResult> {
    const reject = (code: string, message: string, version: number | null = null): Rejected => ({ accepted: false, code, message, version });
    return this.live
      .command(async () => {
        const { seat, viewer, command } = await actor();
        return this.live.withLock(gameId, () =>
          this.decideAndStore(gameId, command, {
            rejected: reject,
            accepted: (next, steps) => {
              const served = steps.map((s) => viewEvent(next, s.event, s.before, s.after, viewer));
              return { accepted: true, gameId, seat, version: next.version, status: next.status, events: served, outcome: next.outcome, game: snapshotOf(next) };
            },
          }),
        );
      })
      .catch((err: unknown) => {
        if (err instanceof RefereeError) return reject(err.code, err.message);
        throw err;
      });
  }

  /**
   * Decides `command` on the game (its lock held) and stores the decision. A refusal made from a
   * cached state is decided once more on the stored state if another instance moved the game
   * since, and a lost race is decided once more on fresh state; then it is a refusal.
   * `answered` may answer from the game as loaded, without deciding (a move already stored).
   */
  private async decideAndStore(
    gameId: string,
    command: GameCommand,
    answers: {
      answered?: (game: LiveGame) => Promise<MoveResult | null>;
      rejected: (code: string, message: string, version: number) => Rejected;
      accepted: (next: LiveGame, steps: Step[]) => MoveResult;
    },
  ): Promise<MoveResult> {
    for (let attempt = 1; ; attempt++) {
      const cached = this.live.has(gameId);
      const game = await this.live.get(gameId);
      const answer = await answers.answered?.(game);
      if (answer) return answer;
      const decided = this.decider.decide(command, game, { now: this.now(), serverSeed: game.serverSeed, supplied: game.supplied });
      if (!decided.ok) {
        if (cached && attempt === 1 && (await this.store.version(gameId)) !== game.version) {
          this.live.forget(gameId);
          continue;
        }
        return answers.rejected(decided.error.code, decided.error.message, game.version);
      }
      try {
        const { next, steps } = await this.stored(game, decided.value);
        return answers.accepted(next, steps);
      } catch (err) {
        if (!(err instanceof AppendConflict)) throw err;
        if (attempt === 1) continue;
        return answers.rejected('VERSION_CONFLICT', 'another move or command was stored first; read the game again and decide anew', game.version);
      }
    }
  }

  /**
   * Stores a decision at the game's expected version, with the rows its events imply (the
   * registered consequences) in the same statement, then holds and publishes
   * the game. A failed append (AppendConflict: a lost race) drops the cached game and is thrown
   * for the caller to decide again or refuse.
   */
  private async stored(game: LiveGame, decision: Decision): Promise<{ next: LiveGame; steps: Step[] }> {
    const { game: next, events, steps } = this.live.advance(game, game, decision);
    try {
      await this.consequences.appendWith(game, next, events, (rows) => this.store.append(game.gameId, events, head(next), rows));
    } catch (err) {
      this.live.forget(game.gameId);
      throw err;
    }
    this.live.publish(next, steps);
    return { next, steps };
  }

  /** Takes an open seat; the last seat taken starts the game. */
  join(gameId: string, input: { seat?: number | null; name?: string | null; clientSeed?: string | null }): Promise<{ game: LiveGame; seat: number; token: string }> {
    return this.live.command(() =>
      this.live.withLock(gameId, async () => {
        const game = await this.live.get(gameId);
        const [name, clientSeed] = [checkName(input.name), checkClientSeed(input.clientSeed)];
        const seats = game.seats.map((s) => ({ name: s.name, clientSeed: s.clientSeed, taken: Boolean(s.tokenHash) }));
        const decided = unwrap(
          this.decider.decide({ type: 'JoinSeat', seat: input.seat ?? null, name, clientSeed, seats }, game, { now: this.now(), serverSeed: game.serverSeed, supplied: game.supplied }),
        );
        const seat = decided.seat!;
        const token = newToken();
        const claim = { index: seat, name, tokenHash: tokenHash(token), clientSeed };
        const { game: next, events, steps } = this.live.advance(game, { ...game, seats: game.seats.map((s) => (s.index === seat ? claim : s)) }, decided);
        try {
          await this.consequences.appendWith(game, next, events, (rows) => this.store.join(gameId, events, head(next), claim, rows));
        } catch (err) {
          this.live.forget(gameId);
          if (err instanceof AppendConflict) throw new RefereeError('VERSION_CONFLICT', 'the game changed while joining; try again');
          throw err;
        }
        this.tokens.remember(gameId, [{ seat, token }]);
        this.live.publish(next, steps);
        return { game: next, seat, token };
      }),
    );
  }
}
