import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { ImportedRecord } from '../../engines/kit/index.js';
import { RefereeError } from '../core/errors.js';
import { parseTimeControl, type TimeControl } from '../core/game/clock.js';
import type { Decision, GameCommand, GameDecider } from '../core/game/commands.js';
import { finish, type StoredEvent } from '../core/stream.js';
import type { EventStore, NewGame, SeatRow } from '../store/event-store.js';
import type { Clock } from './clock.js';
import type { CommandGate } from './command-gate.js';
import type { Consequences } from './consequences.js';
import type { KeyDirectory } from './key-holders.js';
import { advanceGameInSlices, type LiveGame, type LiveGames, type Step } from './live-games.js';
import type { RefereeMetrics } from './metrics.port.js';
import type { Slicer } from './slices.js';
import { checkClientSeed, checkName, newToken, type SeatTokens, tokenHash, unwrap } from './seat-tokens.js';

export interface SeatInput {
  name?: string | null;
  clientSeed?: string | null;
  /** Leave the seat open for someone to join later (no token now). */
  open?: boolean;
  /** Bind the seat to this player (an id): the player's key acts as the seat, and no seat token is issued for it. */
  player?: string | null;
}

export interface CreateGameInput {
  /** The id to create the game with (a challenge's acceptance names it first); omitted: a new one. */
  gameId?: string;
  kind: string;
  ruleset?: unknown;
  seats?: SeatInput[];
  /** Chance values to use, in order, instead of fair draws (an organizer's deal). */
  suppliedChance?: number[][];
  /** The game's clock, in seconds (see parseTimeControl); omitted or `{ kind: 'none' }`: none. */
  timeControl?: unknown;
  /** The game counts for its players' ratings: every seat bound to a player (docs/ratings.md). */
  rated?: boolean;
}

export type NewGameAnswer = { game: LiveGame; tokens: { seat: number; token: string }[] };

/** Starts streams: a new game, or a record replayed into one. Each is decided, then stored whole. */
export class GameSetup {
  private readonly logger = new Logger('Referee');

  constructor(
    private readonly gate: CommandGate,
    private readonly live: LiveGames,
    private readonly tokens: SeatTokens,
    private readonly store: EventStore,
    private readonly decider: GameDecider,
    private readonly metrics: RefereeMetrics,
    private readonly slicer: Slicer,
    private readonly clock: Clock,
    private readonly consequences: Consequences<LiveGame>,
    private readonly keys: KeyDirectory,
  ) {}

  create(input: CreateGameInput): Promise<NewGameAnswer> {
    return this.gate.run(async () => {
      const supplied = input.suppliedChance ?? [];
      if (!Array.isArray(supplied) || supplied.some((v) => !Array.isArray(v) || v.some((x) => !Number.isInteger(x)))) {
        throw new RefereeError('INVALID_INPUT', 'suppliedChance must be a list of lists of whole numbers');
      }
      const seats = input.seats?.map((s) => ({ name: checkName(s.name), clientSeed: checkClientSeed(s.clientSeed), taken: !s.open, player: s.player ?? null }));
      for (const plan of seats ?? []) if (plan.player && !(await this.keys.player(plan.player))) throw new RefereeError('NOT_FOUND', `no player with id ${plan.player}`);
      const timeControl = unwrap(parseTimeControl(input.timeControl));
      const answer = await this.start(
        { type: 'CreateGame', gameId: input.gameId ?? newGameId(), kind: input.kind, ruleset: input.ruleset, seats: seats ?? null, timeControl, rated: input.rated === true },
        supplied,
      );
      this.metrics.inc('arbiter_games_created_total', { kind: answer.game.kind });
      this.logger.log(`game ${answer.game.gameId} created (${answer.game.kind}, ${answer.game.seatCount} seats, ${answer.tokens.length} taken)`);
      return answer;
    });
  }

  /** A record in the game's own format, replayed through the decider into a new game. */
  import(record: ImportedRecord, kind: string): Promise<NewGameAnswer> {
    return this.gate.run(async () => {
      for (const name of record.seatNames ?? []) checkName(name);
      const answer = await this.start({ type: 'ImportGame', gameId: newGameId(), kind, record }, []);
      this.logger.log(`game ${answer.game.gameId} imported (${kind}, ${answer.game.version} events, ${answer.game.status})`);
      return answer;
    });
  }

  /**
   * A record replayed into a new game, decided but not stored: a tournament stores it with the
   * result it attests, in one transaction, so that a refused entry leaves no game behind. Its
   * seats have no tokens: nobody plays a recorded game.
   */
  async preparedImport(record: ImportedRecord, kind: string): Promise<PreparedGame> {
    for (const name of record.seatNames ?? []) checkName(name);
    const serverSeed = randomBytes(32).toString('hex');
    const command: GameCommand = { type: 'ImportGame', gameId: newGameId(), kind, record };
    const decided: Decision = unwrap(await this.slicer.run(this.decider.decideInSlices(command, null, { now: this.clock.now().toISOString(), serverSeed, supplied: [] })));
    const seats: SeatRow[] = decided.game.seatNames.map((name, index) => ({ index, name, tokenHash: null, clientSeed: null }));
    return this.slicer.run(this.rows(decided, serverSeed, [], seats));
  }

  private async start(command: Extract<GameCommand, { type: 'CreateGame' | 'ImportGame' }>, supplied: number[][]): Promise<NewGameAnswer> {
    const serverSeed = randomBytes(32).toString('hex');
    const decided: Decision = unwrap(await this.slicer.run(this.decider.decideInSlices(command, null, { now: this.clock.now().toISOString(), serverSeed, supplied })));
    const tokens: { seat: number; token: string }[] = [];
    const seats: SeatRow[] = decided.game.seatNames.map((name, index) => {
      const plan = command.type === 'CreateGame' ? command.seats?.[index] : undefined;
      if (plan && !plan.taken) return { index, name: null, tokenHash: null, clientSeed: null };
      // A player's seat is acted for with the player's key: it has no token of its own.
      if (plan?.player) return { index, name, tokenHash: null, clientSeed: plan.clientSeed, playerId: plan.player };
      const token = newToken();
      tokens.push({ seat: index, token });
      return { index, name, tokenHash: tokenHash(token), clientSeed: plan?.clientSeed ?? null };
    });
    const made = await this.slicer.run(this.rows(decided, serverSeed, supplied, seats));
    // The creation's rows (the first mover told, the first deadline, the inbox) go in its statement.
    const implied = await this.consequences.implied(null, made.game, made.events);
    await this.store.createGame(made.row, seats, made.events, implied.rows);
    implied.stored();
    this.tokens.remember(made.game.gameId, tokens);
    void this.live.publish(made.game, { gameId: made.game.gameId, game: made.game, steps: made.steps });
    return { game: made.game, tokens };
  }

  /**
   * A tournament's game, decided but not stored: its seats are the participants' (their tokens
   * act as the seats), its clock the tournament's, and the tournament stores it with the pairing
   * that schedules it.
   */
  tournamentGame(input: {
    gameId: string;
    kind: string;
    ruleset: unknown;
    /** The tournament's; omitted: none. */
    timeControl?: TimeControl | null;
    /** `player`: the participant's player, if it is one (the seat is bound to it). */
    seats: { participantId: string; name: string; player?: string | null }[];
    tournament: { id: string; round: number; board: number };
    /** The tournament's games are rated (every seat a player's). */
    rated?: boolean;
  }): PreparedGame {
    const serverSeed = randomBytes(32).toString('hex');
    const seatPlans = input.seats.map((s) => ({ name: s.name, clientSeed: null, taken: true, player: s.player ?? null }));
    const decided = unwrap(
      this.decider.decide({ type: 'CreateGame', gameId: input.gameId, kind: input.kind, ruleset: input.ruleset, seats: seatPlans, timeControl: input.timeControl, rated: input.rated === true }, null, {
        now: this.clock.now().toISOString(),
        serverSeed,
        supplied: [],
      }),
    );
    const seats: SeatRow[] = input.seats.map((s, index) => ({ index, name: s.name, tokenHash: null, clientSeed: null, participantId: s.participantId, playerId: s.player ?? null }));
    const { tournament } = input;
    return finish(this.rows(decided, serverSeed, [], seats, { tournamentId: tournament.id, round: tournament.round, board: tournament.board }));
  }

  /** The game's rows, its events chained a slice at a time (a record's are many). */
  private *rows(decided: Decision, serverSeed: string, supplied: number[][], seats: SeatRow[], scheduled?: { tournamentId: string; round: number; board: number }): Generator<void, PreparedGame> {
    // createdAt stands for the row's, which the database stamps: not a decision's time.
    const { game, events, steps } = yield* advanceGameInSlices(
      null,
      { serverSeed, supplied, seats, createdAt: new Date(), tournamentId: scheduled?.tournamentId ?? null, scheduled: scheduled ? { round: scheduled.round, board: scheduled.board } : null },
      decided,
      this.decider.follows,
    );
    const row: NewGame = {
      id: game.gameId,
      kind: game.kind,
      status: game.status,
      version: game.version,
      headHash: game.lastHash,
      ruleset: game.ruleset,
      rulesetHash: game.rulesetHash,
      seedCommitment: game.seedCommitment,
      serverSeed,
      randomSource: game.randomSource,
      suppliedChance: supplied.length > 0 ? supplied : null,
      imported: game.imported,
      result: game.outcome,
      ...scheduled,
    };
    return { game, events, steps, row, seats };
  }
}

/** A game decided and chained, with its rows, ready to be stored. */
export interface PreparedGame {
  game: LiveGame;
  events: StoredEvent[];
  steps: Step[];
  row: NewGame;
  seats: SeatRow[];
}

export const newGameId = () => randomBytes(9).toString('base64url');
