import type { Type } from '@nestjs/common';
import { Field, Float, ID, InputType, Int, ObjectType, createUnionType, registerEnumType } from '@nestjs/graphql';
import { type Connection, connectionOf } from './connection.js';
import { JSONScalar } from './json.scalar.js';

export enum GameStatusEnum {
  WAITING = 'WAITING',
  ACTIVE = 'ACTIVE',
  FINISHED = 'FINISHED',
  ABORTED = 'ABORTED',
}
registerEnumType(GameStatusEnum, {
  name: 'GameStatus',
  description: 'WAITING for seats, ACTIVE, FINISHED, or ABORTED',
  valuesMap: {
    WAITING: { description: 'Some seats are still open (joinGame takes them); play has not started' },
    ACTIVE: { description: 'Every seat is taken and the game is being played' },
    FINISHED: { description: 'The game is over (Game.outcome tells how)' },
    ABORTED: { description: 'A seat aborted the game before any seat moved (abortGame): over, with no result' },
  },
});

export enum TimeControlKind {
  NONE = 'NONE',
  CORRESPONDENCE = 'CORRESPONDENCE',
  FISCHER = 'FISCHER',
}
registerEnumType(TimeControlKind, {
  name: 'TimeControlKind',
  description: "A game's clock",
  valuesMap: {
    NONE: { description: 'No clock: nobody runs out of time' },
    CORRESPONDENCE: { description: 'Days per move: each turn refills the bank by perMoveSeconds (up to bankCapSeconds), plus vacationSeconds a seat may take' },
    FISCHER: { description: 'baseSeconds for the whole game, plus incrementSeconds after each turn' },
  },
});

@ObjectType({ description: 'A refusal: nothing changed. `code` is stable; `message` explains the rule or input problem.' })
export class Rejection {
  /** Why: a stable code; its field is typed by the RejectionCode enum of the games served (src/api/typed-answers.module.ts). */
  code: string;
  @Field({ description: 'What to do about it, for a person' }) message: string;
  @Field(() => Int, { nullable: true, description: 'The game version when refused, if known' }) currentVersion?: number | null;
}

/** A mutation's answer: its success type (a thunk: the class may be declared further down) or a Rejection, told apart by Rejection's `code`. */
export function orRejection<T extends Type<unknown>>(name: string, description: string, success: () => T) {
  return createUnionType({ name, description, types: () => [success(), Rejection] as const, resolveType: (v: object) => ('code' in v ? Rejection : success()) });
}

@ObjectType({ description: 'One seat of a game and whether it is taken' })
export class SeatInfo {
  @Field(() => Int, { description: "The seat's index, from 0 (backgammon: 0 White, 1 Black; Cerke: 0 IA, 1 A)" }) index: number;
  @Field(() => String, { nullable: true, description: "The player's name; null when none was given or the seat is open" }) name: string | null;
  @Field({ description: 'Whether a player holds this seat' }) taken: boolean;
  @Field(() => ID, { nullable: true, description: "The player the seat is bound to (its key acts as the seat); null: an anonymous seat token's, or open" }) player: string | null;
}

@ObjectType({ description: "How this game's randomness can be checked" })
export class Fairness {
  @Field({ description: 'SHA-256 of the server seed, published at creation' }) seedCommitment: string;
  @Field({ description: '"fair" (drawn by the referee) or "supplied" (organizer deal or imported record)' }) randomSource: string;
  @Field(() => String, { nullable: true, description: 'Revealed when the game ends' }) serverSeed: string | null;
  @Field(() => [String], { nullable: 'items', description: 'Client seeds mixed in before play started' }) clientSeeds: (string | null)[];
}

@ObjectType({ description: "One event of a game's hash-chained log, as the caller may see it" })
export class GameEvent {
  @Field(() => Int, { description: 'Its position in the log, from 1; the game version after it' }) seq: number;
  @Field({
    description:
      'The event type: GameCreated, SeatJoined, GameStarted, ActionTaken, Resigned, GameEnded, SeedRevealed, the clock events (TimedOut, TimeAdded, PauseRequested, ResumeRequested, PauseDeclined, ClockPaused, ClockResumed), or a chance draw (e.g. DiceRolled, TilesShuffled, SticksCast)',
  })
  type: string;
  @Field(() => Int, { nullable: true, description: "The seat that caused it; null for the referee's own events (creation, chance draws, the end)" }) actor: number | null;
  @Field(() => String, { nullable: true, description: 'The client move id, on the first event of an accepted move; null otherwise' }) moveId: string | null;
  @Field(() => JSONScalar, { description: 'The payload as stored and hashed (a chance draw holds its values as drawn, 0 to range - 1), bar what the viewer may not see; typed: detail' })
  payload: unknown;
  @Field({ description: 'When it was stored (the instant the hash covers, to the millisecond)' }) createdAt: Date;
  @Field({ description: "The previous event's hash (64 zeros for the first event), hex" }) prevHash: string;
  @Field({ description: 'SHA-256 (hex) of prevHash and the canonical JSON of the event: the hash chain' }) hash: string;
  /** The game it belongs to and its kind (not fields: they let `detail` read the event in its game's terms). */
  gameId?: string;
  kind?: string;
}

@ObjectType({ description: 'A game the referee keeps: its kind, seats, ruleset and log head; seat-specific fields answer for the caller' })
export class Game {
  @Field(() => ID, { description: 'The game id' }) id: string;
  @Field({ description: 'The game kind (one of gameKinds), e.g. backgammon' }) kind: string;
  @Field(() => GameStatusEnum, { description: 'WAITING for seats, ACTIVE, FINISHED or ABORTED' }) status: GameStatusEnum;
  @Field(() => Int, { description: 'seq of the last event; pass it as expectedVersion' }) version: number;
  @Field(() => String, { nullable: true, description: "Hash of the event at `version`: the head a bundle's stream must end at (compare it with the bundle's `head`)" })
  headHash: string | null;
  @Field(() => JSONScalar, { description: 'The complete ruleset, defaults filled in' }) ruleset: unknown;
  @Field({ description: 'SHA-256 (hex) of the canonical ruleset JSON' }) rulesetHash: string;
  @Field({ description: 'The game was replayed from an imported record (importGame)' }) imported: boolean;
  @Field({ description: 'When the game was created' }) createdAt: Date;
  @Field(() => [SeatInfo], { description: 'Every seat, seat 0 first' }) seats: SeatInfo[];
  @Field(() => ID, { nullable: true, description: 'The tournament that scheduled the game (its result counts there); null outside tournaments' }) tournamentId: string | null;
  @Field(() => Int, { nullable: true, description: 'The tournament round the game was scheduled in (from 1); null outside tournaments' }) round: number | null;
  @Field(() => Int, { nullable: true, description: 'The board of its tournament round (from 1); null outside tournaments' }) board: number | null;
}

@ObjectType({ description: "A seat's secret token" })
export class SeatToken {
  @Field(() => Int, { description: 'The seat index, from 0' }) seat: number;
  @Field({ description: 'Secret: send it as "Authorization: Bearer <token>" to act for this seat' }) token: string;
}

@ObjectType({ description: 'The game was created' })
export class GameCreated {
  @Field(() => Game, { description: 'The new game' }) game: Game;
  @Field(() => [SeatToken], { description: 'A token per seat taken now (none for open seats); shown only here, keep them' }) tokens: SeatToken[];
}

@ObjectType({ description: 'The seat was taken' })
export class SeatJoined {
  @Field(() => Game, { description: 'The game joined' }) game: Game;
  @Field(() => Int, { description: 'The seat taken, from 0' }) seat: number;
  @Field({ description: 'Secret: send it as "Authorization: Bearer <token>" to act for this seat; shown only here' }) token: string;
}

@ObjectType({ description: 'The move was stored. `events` are the events it produced, as the mover may see them.' })
export class MoveAccepted {
  @Field(() => ID, { description: 'The game' }) gameId: string;
  @Field(() => Int, { description: 'The seat that moved' }) seat: number;
  @Field(() => Int, { description: 'The game version after the move (its last event); pass it as expectedVersion or atLeastVersion' }) version: number;
  @Field(() => GameStatusEnum, { description: 'The game status after the move' }) status: GameStatusEnum;
  @Field(() => [GameEvent], { description: 'The events the move produced (chance draws included), as the mover may see them' }) events: GameEvent[];
  @Field(() => JSONScalar, { nullable: true, description: 'The outcome, once the game is over' }) result: unknown;
}

export const CreateGameResult = orRejection('CreateGameResult', 'The game created (GameCreated), or why not (Rejection)', () => GameCreated);
export const JoinGameResult = orRejection('JoinGameResult', 'The seat taken (SeatJoined), or why not (Rejection)', () => SeatJoined);
export const MoveResult = orRejection('MoveResult', 'The move stored (MoveAccepted), or why it was refused, nothing changed (Rejection)', () => MoveAccepted);

export { PageInfo } from './connection.js';

export const GameConnection = connectionOf(Game, 'Game', {
  connection: 'A page of games, newest first (Relay cursor connection)',
  edge: 'A game of a page, with its cursor',
  node: 'The game',
  items: 'games',
  cursor: 'Opaque: pass it as `after` or `before`',
  nodes: "The page's games without their cursors (the edges' nodes)",
  pageInfo: 'Where the page starts and ends, and whether more games follow or precede it',
});
/** A page of games; `count` counts the filter's matches, resolved only when `totalCount` is asked for. */
export type GameConnection = Connection<Game> & { count: () => Promise<number> };

export const GameEventConnection = connectionOf(GameEvent, 'GameEvent', {
  connection: "A page of a game's events, oldest first (Relay cursor connection): the cursor is the event's seq, so a page resumes as the gameEvents subscription does",
  edge: 'An event of a page, with its cursor',
  node: 'The event',
  items: 'events',
  cursor: "The event's seq as a string: pass it as `after` or `before` (or its number as the subscription's afterSeq)",
  pageInfo: 'Where the page starts and ends, and whether more events follow or precede it',
  totalCount: "How many events the game's log holds (its version)",
});
export type GameEventConnection = Connection<GameEvent>;

@ObjectType('GameSnapshot', { description: 'A game as it was just after one event of its log' })
export class PastGame {
  @Field(() => Int, { description: 'The event the game is shown after' }) seq: number;
  @Field(() => JSONScalar, { description: 'The game then, as the caller may see it (as Game.view)' }) view: unknown;
  @Field(() => JSONScalar, { nullable: true, description: 'The outcome, if the game was over by then; else null' }) result: unknown;
}

@ObjectType({ description: 'The result of recomputing a game from its log' })
export class Verdict {
  @Field({ description: 'Everything checked out' }) ok: boolean;
  @Field(() => Int, { description: 'Events checked before the verdict' }) eventsChecked: number;
  @Field(() => Int, { description: 'Fair random outcomes recomputed from the server seed' }) drawsRecomputed: number;
  @Field(() => Int, { nullable: true, description: 'The first event that fails' }) badSeq: number | null;
  @Field(() => String, { nullable: true, description: 'What is wrong; null when ok' }) problem: string | null;
  @Field({ description: 'The random outcomes could be checked (the server seed is known: revealed once the game ends)' }) fairnessChecked: boolean;
  @Field({ description: 'One line a person can read' }) summary: string;
}

@InputType({ description: "A new game's clock; give exactly the fields of its kind (a field of another kind is refused)" })
export class TimeControlInput {
  @Field(() => TimeControlKind, { description: 'NONE, CORRESPONDENCE or FISCHER' }) kind: TimeControlKind;
  @Field(() => Int, { nullable: true, description: 'CORRESPONDENCE (required): seconds added to the bank when a turn starts, 60 to 60 days' }) perMoveSeconds?: number | null;
  @Field(() => Int, { nullable: true, description: 'CORRESPONDENCE: the most the bank may hold (at least perMoveSeconds); omitted: time left over is not kept' })
  bankCapSeconds?: number | null;
  @Field(() => Int, { nullable: true, description: 'CORRESPONDENCE: vacation each seat may take in the game (addTime with vacation: true); default 0' }) vacationSeconds?: number | null;
  @Field(() => Int, { nullable: true, description: 'FISCHER (required): seconds each seat has for the whole game, 10 to 30 days' }) baseSeconds?: number | null;
  @Field(() => Int, { nullable: true, description: 'FISCHER: seconds added to a seat after each of its turns, up to a day; default 0' }) incrementSeconds?: number | null;
}

@ObjectType({ description: "A game's time control, as created" })
export class TimeControl {
  @Field(() => TimeControlKind, { description: 'CORRESPONDENCE or FISCHER' }) kind: TimeControlKind;
  @Field(() => Int, { nullable: true, description: 'CORRESPONDENCE: seconds added to the bank when a turn starts' }) perMoveSeconds: number | null;
  @Field(() => Int, { nullable: true, description: 'CORRESPONDENCE: the most the bank holds; null: time left over is not kept' }) bankCapSeconds: number | null;
  @Field(() => Int, { nullable: true, description: 'CORRESPONDENCE: vacation each seat may take in the game' }) vacationSeconds: number | null;
  @Field(() => Int, { nullable: true, description: 'FISCHER: seconds each seat has for the whole game' }) baseSeconds: number | null;
  @Field(() => Int, { nullable: true, description: 'FISCHER: seconds added after each turn' }) incrementSeconds: number | null;
}

@ObjectType({ description: "A game's clocks as of the request" })
export class GameClock {
  @Field(() => TimeControlKind, { description: 'CORRESPONDENCE or FISCHER' }) kind: TimeControlKind;
  @Field(() => TimeControl, { description: 'The time control the game was created with' }) control: TimeControl;
  @Field(() => [Float], { description: 'Per seat, milliseconds left as of this request: its own time plus time added to it' }) remainingMs: number[];
  @Field(() => [Int], { description: 'Seats whose clock runs now (the game waits for their decision)' }) running: number[];
  @Field(() => Date, { nullable: true, description: "When the first running seat's time runs out; null when no clock runs" }) deadline: Date | null;
  @Field({ description: 'The clocks are paused (every seat asked: pauseClock)' }) paused: boolean;
  @Field(() => [Int], { description: 'Seats asking to pause (or, while paused, to resume)' }) pauseRequests: number[];
  @Field(() => [Int], { description: 'Seats out of time: those timed out, then running seats at 0 whose timeout is being recorded' }) timedOut: number[];
  @Field(() => [Int], { description: 'Seats the referee plays for until the round ends, after their timeout (Chicken Foot)' }) autoPlayed: number[];
  @Field(() => [Float], { description: 'Per seat, milliseconds of vacation it may still take (correspondence; 0 otherwise)' }) vacationLeftMs: number[];
}

@InputType({ description: 'One seat of a new game' })
export class SeatInput {
  @Field(() => String, { nullable: true, description: "The player's name (optional)" }) name?: string | null;
  @Field(() => String, { nullable: true, description: "Mixed into the game's randomness before play starts" }) clientSeed?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Leave this seat open for joinGame (no token now)' }) open?: boolean | null;
  @Field(() => ID, { nullable: true, description: "Bind the seat to this player: the player's key acts as it (no seat token is issued for it), and the game is in the player's inbox" })
  player?: string | null;
}

/** The clock of a new game: createGame's input and each game's typed create input have it. */
@InputType({ isAbstract: true })
export abstract class TimeControlled {
  @Field(() => TimeControlInput, { nullable: true, description: "The game's clock; omitted: none" }) timeControl?: TimeControlInput | null;
  @Field(() => Boolean, { nullable: true, description: "The game counts for its players' ratings: every seat bound to a player, or RATED_NEEDS_PLAYERS (docs/ratings.md); omitted: false" })
  rated?: boolean | null;
}

@InputType({ description: 'A new game of any kind, its ruleset as JSON (the typed create mutations per game are preferred)' })
export class CreateGameInput extends TimeControlled {
  @Field({ description: 'A game kind this referee plays (the gameKinds query lists them)' }) kind: string;
  @Field(() => JSONScalar, { nullable: true, description: 'Ruleset options; defaults fill the rest' }) ruleset?: unknown;
  @Field(() => [SeatInput], { nullable: true, description: 'One per seat; omitted: every seat taken by the creator' }) seats?: SeatInput[] | null;
}

@InputType({ description: 'Which open seat to take, and as whom' })
export class JoinGameInput {
  @Field(() => Int, { nullable: true, description: 'Seat to take; default the first open one' }) seat?: number | null;
  @Field(() => String, { nullable: true, description: "The player's name (optional)" }) name?: string | null;
  @Field(() => String, { nullable: true, description: "Mixed into the game's randomness before play starts (optional)" }) clientSeed?: string | null;
}

@InputType({ description: 'Which games to list; every criterion given must match, an omitted one matches all' })
export class GameFilterInput {
  @Field(() => String, { nullable: true, description: 'Only games of this kind (one of gameKinds)' }) kind?: string | null;
  @Field(() => GameStatusEnum, { nullable: true, description: 'Only games with this status' }) status?: GameStatusEnum | null;
  @Field(() => Boolean, { nullable: true, description: 'Only imported games (true) or only played ones (false)' }) imported?: boolean | null;
  @Field(() => ID, { nullable: true, description: 'Only the games this tournament scheduled' }) tournamentId?: string | null;
  @Field(() => Int, { nullable: true, description: "Only the games of this tournament round (from 1; with tournamentId, one tournament's round)" }) round?: number | null;
}
