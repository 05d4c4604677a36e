import { type RejectionCode, RejectionCodeEnum } from './rejection-codes.js';
import { Field, ID, InputType, Int, ObjectType, createUnionType, registerEnumType } from '@nestjs/graphql';
import { JSONScalar } from './json.scalar.js';

export enum GameStatusEnum {
  WAITING = 'WAITING',
  ACTIVE = 'ACTIVE',
  FINISHED = 'FINISHED',
}
registerEnumType(GameStatusEnum, { name: 'GameStatus', description: 'WAITING for seats, ACTIVE, or FINISHED' });

@ObjectType({ description: 'A refusal: nothing changed. `code` is stable; `message` explains the rule or input problem.' })
export class Rejection {
  @Field(() => RejectionCodeEnum, { description: 'Why: a stable code (see RejectionCode)' }) code: RejectionCode;
  @Field({ description: 'What to do about it, for a person' }) message: string;
  @Field(() => Int, { nullable: true, description: 'The game version when refused, if known' }) currentVersion?: number | null;
}

@ObjectType()
export class SeatInfo {
  @Field(() => Int) index: number;
  @Field(() => String, { nullable: true }) name: string | null;
  @Field({ description: 'Whether a player holds this seat' }) taken: boolean;
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
  @Field(() => Int) seq: number;
  @Field() type: string;
  @Field(() => Int, { nullable: true }) actor: number | null;
  @Field(() => String, { nullable: true }) moveId: string | null;
  @Field(() => JSONScalar, { description: 'The payload as stored and hashed (a chance draw holds its values as drawn, 0 to range - 1), bar what the viewer may not see; typed: detail' })
  payload: unknown;
  @Field() createdAt: string;
  @Field() prevHash: string;
  @Field() hash: string;
  /** The game it belongs to (not a field: it lets `detail` read the event in its game's terms). */
  gameId?: string;
}

@ObjectType()
export class Game {
  @Field(() => ID) id: string;
  @Field() kind: string;
  @Field(() => GameStatusEnum) status: GameStatusEnum;
  @Field(() => Int, { description: 'seq of the last event; pass it as expectedVersion' }) version: number;
  @Field(() => String, { nullable: true, description: "Hash of the event at `version`: the head a bundle's stream must end at (compare it with the bundle's `head`)" })
  headHash: string | null;
  @Field(() => JSONScalar, { description: 'The complete ruleset, defaults filled in' }) ruleset: unknown;
  @Field() rulesetHash: string;
  @Field() imported: boolean;
  @Field() createdAt: Date;
  @Field(() => [SeatInfo]) seats: SeatInfo[];
}

@ObjectType()
export class SeatToken {
  @Field(() => Int) seat: number;
  @Field({ description: 'Secret: send it as "Authorization: Bearer <token>" to act for this seat' }) token: string;
}

@ObjectType()
export class GameCreated {
  @Field(() => Game) game: Game;
  @Field(() => [SeatToken]) tokens: SeatToken[];
}

@ObjectType()
export class SeatJoined {
  @Field(() => Game) game: Game;
  @Field(() => Int) seat: number;
  @Field() token: string;
}

@ObjectType({ description: 'The move was stored. `events` are the events it produced, as the mover may see them.' })
export class MoveAccepted {
  @Field(() => ID) gameId: string;
  @Field(() => Int) seat: number;
  @Field(() => Int) version: number;
  @Field(() => GameStatusEnum) status: GameStatusEnum;
  @Field(() => [GameEvent]) events: GameEvent[];
  @Field(() => JSONScalar, { nullable: true, description: 'The outcome, once the game is over' }) result: unknown;
}

export const CreateGameResult = createUnionType({
  name: 'CreateGameResult',
  types: () => [GameCreated, Rejection] as const,
  resolveType: (v: object) => ('code' in v ? Rejection : GameCreated),
});
export const JoinGameResult = createUnionType({
  name: 'JoinGameResult',
  types: () => [SeatJoined, Rejection] as const,
  resolveType: (v: object) => ('code' in v ? Rejection : SeatJoined),
});
export const MoveResult = createUnionType({
  name: 'MoveResult',
  types: () => [MoveAccepted, Rejection] as const,
  resolveType: (v: object) => ('code' in v ? Rejection : MoveAccepted),
});

@ObjectType({ description: 'Where a page of a list starts and ends (Relay cursor connections)' })
export class PageInfo {
  @Field(() => String, { nullable: true, description: "The first item's cursor (`before` it pages backwards)" }) startCursor: string | null;
  @Field(() => String, { nullable: true, description: "The last item's cursor (`after` it pages forwards)" }) endCursor: string | null;
  @Field({ description: 'More items follow the page (known when paging forwards with `first`; false with `last`)' }) hasNextPage: boolean;
  @Field({ description: 'More items precede the page (known when paging backwards with `last`; false with `first`)' }) hasPreviousPage: boolean;
}

@ObjectType()
export class GameEdge {
  @Field({ description: 'Opaque: pass it as `after` or `before`' }) cursor: string;
  @Field(() => Game) node: Game;
}

@ObjectType({ description: 'A page of games, newest first (Relay cursor connection)' })
export class GameConnection {
  @Field(() => [GameEdge]) edges: GameEdge[];
  @Field(() => [Game], { description: "The page's games without their cursors (the edges' nodes)" }) nodes: Game[];
  @Field(() => PageInfo) pageInfo: PageInfo;
  /** Counts the filter's matches; resolved only when `totalCount` is asked for. */
  count: () => Promise<number>;
}

@ObjectType()
export class GameSnapshot {
  @Field(() => Int) seq: number;
  @Field(() => JSONScalar) view: unknown;
  @Field(() => JSONScalar, { nullable: true }) result: unknown;
}

@ObjectType({ description: 'The result of recomputing a game from its log' })
export class Verdict {
  @Field() ok: boolean;
  @Field(() => Int) eventsChecked: number;
  @Field(() => Int) drawsRecomputed: number;
  @Field(() => Int, { nullable: true, description: 'The first event that fails' }) badSeq: number | null;
  @Field(() => String, { nullable: true }) problem: string | null;
  @Field() fairnessChecked: boolean;
  @Field() summary: string;
}

@InputType()
export class SeatInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true, description: "Mixed into the game's randomness before play starts" }) clientSeed?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Leave this seat open for joinGame (no token now)' }) open?: boolean | null;
}

@InputType()
export class CreateGameInput {
  @Field({ description: 'A game kind this referee plays (the gameKinds query lists them)' }) kind: string;
  @Field(() => JSONScalar, { nullable: true, description: 'Ruleset options; defaults fill the rest' }) ruleset?: unknown;
  @Field(() => [SeatInput], { nullable: true, description: 'One per seat; omitted: every seat taken by the creator' }) seats?: SeatInput[] | null;
}

@InputType()
export class JoinGameInput {
  @Field(() => Int, { nullable: true, description: 'Seat to take; default the first open one' }) seat?: number | null;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) clientSeed?: string | null;
}

@InputType()
export class GameFilterInput {
  @Field(() => String, { nullable: true }) kind?: string | null;
  @Field(() => GameStatusEnum, { nullable: true }) status?: GameStatusEnum | null;
  @Field(() => Boolean, { nullable: true }) imported?: boolean | null;
}
