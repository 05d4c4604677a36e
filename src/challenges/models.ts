import { ArgsType, Field, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { JSONScalar } from '../api/json.scalar.js';
import { type Connection, connectionOf } from '../api/connection.js';
import { Game, orRejection, TimeControl, TimeControlInput } from '../api/models.js';

/** The challenger's seat, as GraphQL names the choices (the core's: first, second, random). */
export enum ChallengeSeat {
  FIRST = 'first',
  SECOND = 'second',
  RANDOM = 'random',
}
registerEnumType(ChallengeSeat, {
  name: 'ChallengeSeat',
  description: "The challenger's seat in the game an acceptance creates",
  valuesMap: {
    FIRST: { description: 'Seat 0 (backgammon: White)' },
    SECOND: { description: 'Seat 1 (backgammon: Black)' },
    RANDOM: { description: 'Drawn by the referee when the challenge is accepted' },
  },
});

export enum ChallengeStatusEnum {
  OPEN = 'OPEN',
  ACCEPTED = 'ACCEPTED',
  DECLINED = 'DECLINED',
  CANCELLED = 'CANCELLED',
  EXPIRED = 'EXPIRED',
}
registerEnumType(ChallengeStatusEnum, {
  name: 'ChallengeStatus',
  description: 'Where a challenge stands as of the request',
  valuesMap: {
    OPEN: { description: 'Waiting for an answer until expiresAt' },
    ACCEPTED: { description: 'Accepted: gameId is the game it created' },
    DECLINED: { description: 'Declined by the player challenged (reason, if given)' },
    CANCELLED: { description: 'Cancelled by its challenger' },
    EXPIRED: { description: 'Nobody answered before expiresAt' },
  },
});

@ObjectType({ description: 'A player as a challenge names it' })
export class ChallengePlayer {
  @Field(() => ID, { description: "The player's id (pl-...)" }) id: string;
  @Field(() => String, { nullable: true, description: 'Its display name (null if the player is gone)' }) name: string | null;
}

@ObjectType({ description: 'A challenge from one player to another (or, open, to anyone): a game offered (docs/players.md, "Challenges")' })
export class Challenge {
  @Field(() => ID, { description: "The challenge's id (ch-...)" }) id: string;
  @Field(() => ChallengeStatusEnum, { description: 'OPEN, ACCEPTED, DECLINED, CANCELLED or EXPIRED, as of the request' }) status: ChallengeStatusEnum;
  @Field(() => ChallengePlayer, { description: 'Who challenges' }) challenger: ChallengePlayer;
  @Field(() => ChallengePlayer, { nullable: true, description: 'Who is challenged; null: an open challenge, any other player may accept it' }) challenged: ChallengePlayer | null;
  @Field({ description: 'The game kind' }) kind: string;
  @Field(() => JSONScalar, { description: 'The ruleset, every option resolved, as the game will have it' }) ruleset: unknown;
  @Field(() => TimeControl, { nullable: true, description: "The game's clock; null: none" }) timeControl: TimeControl | null;
  @Field(() => ChallengeSeat, { description: "The challenger's seat choice" }) seat: ChallengeSeat;
  @Field(() => String, { nullable: true, description: "The challenger's message (not `message`: a Rejection's field of another type)" }) challengerMessage: string | null;
  @Field({ description: 'When it was issued' }) createdAt: Date;
  @Field({ description: 'When it expires, if nobody answered it' }) expiresAt: Date;
  @Field(() => ChallengePlayer, { nullable: true, description: 'Who accepted it (an open challenge: whoever did first)' }) acceptedBy: ChallengePlayer | null;
  @Field(() => ID, { nullable: true, description: 'The game its acceptance created' }) gameId: string | null;
  @Field(() => Int, { nullable: true, description: "The challenger's seat in that game" }) challengerSeat: number | null;
  @Field(() => String, { nullable: true, description: 'The reason the player challenged gave when declining, if any' }) reason: string | null;
  @Field({ description: "Its game counts for both players' ratings (docs/ratings.md)" }) rated: boolean;
}

@ObjectType({ description: 'A challenge accepted: the game it created, both seats bound to the two players (their keys act as them)' })
export class ChallengeAccepted {
  @Field(() => Challenge, { description: 'The challenge, ACCEPTED' }) challenge: Challenge;
  @Field(() => Game, { description: 'The new game' }) game: Game;
}

export const ChallengeResult = orRejection('ChallengeResult', 'The challenge as the command left it (Challenge), or why not, nothing changed (Rejection)', () => Challenge);
export const AcceptChallengeResult = orRejection('AcceptChallengeResult', 'The challenge accepted and its game (ChallengeAccepted), or why not, nothing changed (Rejection)', () => ChallengeAccepted);

@InputType({ description: 'A challenge: the game offered, to whom, and for how long' })
export class IssueChallengeInput {
  @Field(() => ID, { nullable: true, description: 'The player challenged; omitted: an open challenge, any other player may accept it' }) to?: string | null;
  @Field({ description: 'The game kind (one of gameKinds); a game for two' }) kind: string;
  @Field(() => JSONScalar, { nullable: true, description: "The ruleset as createGame takes it; checked now (a bad one is refused when issued, not when accepted); omitted: the kind's defaults" })
  ruleset?: unknown;
  @Field(() => TimeControlInput, { nullable: true, description: "The game's clock, as createGame takes it; omitted: none" }) timeControl?: TimeControlInput | null;
  @Field(() => ChallengeSeat, { nullable: true, description: "The challenger's seat; omitted: RANDOM" }) seat?: ChallengeSeat | null;
  @Field(() => String, { nullable: true, description: 'A message to the player challenged, at most 500 characters' }) message?: string | null;
  @Field(() => Int, { nullable: true, description: 'Seconds until it expires, from 60 to 30 days; omitted: 7 days' }) expiresInSeconds?: number | null;
  @Field(() => Boolean, { nullable: true, description: "The game counts for both players' ratings (docs/ratings.md); omitted: false" }) rated?: boolean | null;
}

export const ChallengeConnection = connectionOf(Challenge, 'Challenge', {
  connection: 'A page of challenges, newest first (Relay cursor connection)',
  edge: 'A challenge with its cursor',
  node: 'The challenge',
  items: 'challenges',
});
export type ChallengeConnection = Connection<Challenge>;

/** A page of a list of challenges, newest first. */
@ArgsType()
export class ChallengePageArgs {
  @Field(() => Int, { nullable: true, description: 'At most 100; 20 by default' }) first: number | null;
  @Field(() => String, { nullable: true, description: 'A cursor: the challenges after it' }) after: string | null;
}

/** A page of the caller's incoming or outgoing challenges. */
@ArgsType()
export class ChallengeListArgs extends ChallengePageArgs {
  @Field(() => ChallengeStatusEnum, { nullable: true, description: 'Only challenges of this status (OPEN: not expired); omitted: all' }) status: ChallengeStatusEnum | null;
}
