import { fail, ok, type Outcome, type Result, type Viewer } from '../../engines/kit/index.js';
import { hashOf } from '../core/canonical.js';
import { RefereeError } from '../core/errors.js';
import type { Decision, GameCommand, GameDecider } from '../core/game/commands.js';
import { viewEvent } from '../core/game/views.js';
import type { StoredEvent } from '../core/stream.js';
import type { EventStore, SeatClaim } from '../store/event-store.js';
import type { Clock } from './clock.js';
import type { CommandGate } from './command-gate.js';
import type { Consequences } from './consequences.js';
import { type GameSnapshot, resultOf, snapshotOf } from './game-answer.js';
import { checkKind, type GameQueries } from './game-queries.js';
import { advanceGame, type Appended, type LiveGame, type LiveGames, type Step } from './live-games.js';
import type { RefereeMetrics } from './metrics.port.js';
import { checkClientSeed, checkName, newToken, type SeatTokens, tokenHash } from './seat-tokens.js';
import { type Advanced, StreamCommands, type StreamWriter } from './stream-commands.js';

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

/** A game's decision, with the seat it claims (a join). */
interface GameStep {
  decision: Decision;
  claim: SeatClaim | null;
}
type AdvancedGame = Advanced<LiveGame, Appended> & { steps: Step[] };

/**
 * The game's part of the command path: a decision chained after the game, its events stored in
 * one statement with the rows they imply (the registered consequences: webhook messages, the
 * game's deadline row), a join's with its seat claimed.
 */
class GameWriter implements StreamWriter<LiveGame, GameStep, AdvancedGame> {
  constructor(
    private readonly store: EventStore,
    private readonly consequences: Consequences<LiveGame>,
    private readonly follows: (type: string) => boolean,
  ) {}

  advance(game: LiveGame, { decision, claim }: GameStep): AdvancedGame {
    const rows = claim ? { ...game, seats: game.seats.map((s) => (s.index === claim.index ? claim : s)) } : game;
    const { game: next, events, steps } = advanceGame(game, rows, decision, this.follows);
    return { next, events, steps, batch: { gameId: next.gameId, game: next, steps } };
  }

  append(before: LiveGame, { next, events }: AdvancedGame, { claim }: GameStep): Promise<void> {
    return this.consequences.appendWith(before, next, events, (rows) =>
      claim ? this.store.join(before.gameId, events, head(next), claim, rows) : this.store.append(before.gameId, events, head(next), rows),
    );
  }
}

/**
 * Commands on a running game, each through the command path (StreamCommands): moves, joins,
 * clock commands, an organizer's adjudication, a timeout. Rule and input problems of a move are
 * typed answers, never errors.
 */
export class GameCommands {
  private readonly path: StreamCommands<LiveGame, Appended, GameStep, AdvancedGame>;

  constructor(
    private readonly gate: CommandGate,
    live: LiveGames,
    private readonly tokens: SeatTokens,
    store: EventStore,
    private readonly decider: GameDecider,
    private readonly queries: GameQueries,
    private readonly metrics: RefereeMetrics,
    private readonly clock: Clock,
    consequences: Consequences<LiveGame>,
  ) {
    const writer = new GameWriter(store, consequences, decider.follows);
    this.path = new StreamCommands(gate, live, writer, 'another move or command was stored first; read the game again and decide anew');
  }

  /** The decider's answer to `command` on the game, at the injected clock's time. */
  private decide(command: GameCommand, game: LiveGame): Result<GameStep> {
    // docs/rules/tournaments.md R3.2: a scheduled game that is not played is the organizer's forfeit, never aborted.
    if (command.type === 'AbortGame' && game.tournamentId)
      return fail('TOURNAMENT_GAME', `the game is tournament ${game.tournamentId}'s: its organizer's rules decide it (resign, or ask the organizer)`);
    const decided = this.decider.decide(command, game, { now: this.clock.now().toISOString(), serverSeed: game.serverSeed, supplied: game.supplied });
    return decided.ok ? ok({ decision: decided.value, claim: null }) : decided;
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
      return await this.gate.run(async () => {
        if (typeof moveId !== 'string' || !MOVE_ID.test(moveId)) return reject('INVALID_INPUT', 'moveId must be 1-128 characters: letters, digits, _ . : -');
        const expected = expectedVersion ?? null;
        if (expected !== null && (!Number.isInteger(expected) || expected < 0)) return reject('INVALID_INPUT', 'expectedVersion must be a whole number');
        const bodyHash = hashOf(body);
        let seat = -1;
        let command: GameCommand | null = null;
        // The game is loaded once, by the command path: its kind and the seat are checked on it.
        return this.path.execute<MoveResult>(gameId, {
          replay: async (game) => {
            kind = game.kind;
            // The game's kind first: a typed move for another game says so before anything else.
            if (expectedKind) checkKind(game, expectedKind);
            seat = await this.tokens.seatOf(gameId, token);
            command =
              body.kind === 'resign'
                ? { type: 'Resign', seat, moveId, bodyHash, expectedVersion: expected }
                : { type: 'TakeAction', seat, moveId, bodyHash, action: body.action, expectedVersion: expected };
            const previous = game.commands.get(moveId);
            if (!previous) return null;
            // A retry is answered only to the seat that made the move, with the same body.
            if (previous.actor !== seat) return reject('MOVE_ID_REUSED', `move id ${moveId} was already used in this game; choose another`, game.version);
            if (previous.bodyHash !== bodyHash) return reject('MOVE_ID_REUSED', `move id ${moveId} was already used for a different move`, game.version);
            const events = await this.queries.servedEvents(game, previous.fromSeq - 1, seat, previous.toSeq);
            return { accepted: true, gameId, seat, version: previous.toSeq, status: game.status, events, outcome: resultOf(game), game: snapshotOf(game) };
          },
          decide: (game) => this.decide(command!, game),
          refused: (code, message, game) => reject(code, message, game.version),
          accepted: ({ next, steps }) => {
            this.metrics.inc('arbiter_moves_accepted_total', { kind });
            this.metrics.observe('arbiter_move_duration_seconds', { kind }, (performance.now() - started) / 1000);
            return answer(next, steps, seat, seat);
          },
        });
      });
    } catch (err) {
      if (err instanceof RefereeError) return reject(err.code, err.message);
      throw err;
    }
  }

  /**
   * Ends a running game with an organizer's outcome. With the organizer's `entry` (the
   * tournament result it enters, kept in the game's end) a game already over refuses it with
   * GAME_OVER: decided on the game as stored and appended at that version, so a seat's end stored
   * first wins. Without (a withdrawal's forfeit, recorded already) a game already over is left as
   * it is: safe to repeat.
   */
  adjudicate(gameId: string, outcome: Outcome, reason: string, entry?: Record<string, unknown>): Promise<LiveGame> {
    return this.path.run(gameId, {
      replay: (game) => (game.ended && !entry ? game : null),
      decide: (game) => this.decide({ type: 'Adjudicate', outcome, reason, entry }, game),
      accepted: ({ next }) => next,
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

  /** The seat declines the other seats' request to pause: the requests are withdrawn, the clocks run on. */
  declinePause(gameId: string, token: string | null): Promise<MoveResult> {
    return this.bySeat(gameId, token, (seat) => ({ type: 'DeclinePause', seat }));
  }

  /** The seat holding `token` aborts the game: refused once a seat moved (ABORT_TOO_LATE), and for a tournament's game. */
  abort(gameId: string, token: string | null): Promise<MoveResult> {
    return this.bySeat(gameId, token, (seat) => ({ type: 'AbortGame', seat }));
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
    return this.gate
      .run(async () => {
        const { seat, viewer, command } = await actor();
        return this.path.execute<MoveResult>(gameId, {
          decide: (game) => this.decide(command, game),
          refused: (code, message, game) => reject(code, message, game.version),
          accepted: ({ next, steps }) => answer(next, steps, seat, viewer),
        });
      })
      .catch((err: unknown) => {
        if (err instanceof RefereeError) return reject(err.code, err.message);
        throw err;
      });
  }

  /**
   * Takes an open seat; the last seat taken starts the game. With `player` (the holder of a
   * player key) the seat is bound to that player: the player's key acts as it too.
   */
  join(gameId: string, input: { seat?: number | null; name?: string | null; clientSeed?: string | null }, player: string | null = null): Promise<{ game: LiveGame; seat: number; token: string }> {
    const token = newToken();
    return this.path.run(gameId, {
      decide: (game) => {
        const [name, clientSeed] = [checkName(input.name), checkClientSeed(input.clientSeed)];
        const seats = game.seats.map((s) => ({ name: s.name, clientSeed: s.clientSeed, taken: Boolean(s.tokenHash || s.playerId) }));
        const decided = this.decide({ type: 'JoinSeat', seat: input.seat ?? null, name, clientSeed, seats, player }, game);
        if (!decided.ok) return decided;
        const seat = decided.value.decision.seat!;
        return ok({ ...decided.value, claim: { index: seat, name, tokenHash: tokenHash(token), clientSeed, playerId: player } });
      },
      accepted: ({ next }, { claim }) => {
        this.tokens.remember(gameId, [{ seat: claim!.index, token }]);
        return { game: next, seat: claim!.index, token };
      },
    });
  }
}

/** An accepted command's answer: its events as `viewer` may see them. */
function answer(next: LiveGame, steps: Step[], seat: number, viewer: Viewer): Accepted {
  const events = steps.map((s) => viewEvent(next, s.event, s.before, s.after, viewer));
  return { accepted: true, gameId: next.gameId, seat, version: next.version, status: next.status, events, outcome: resultOf(next), game: snapshotOf(next) };
}
