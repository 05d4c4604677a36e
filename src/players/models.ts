import { Field, ID, ObjectType, registerEnumType } from '@nestjs/graphql';
import { orRejection } from '../api/models.js';
import type { KeyListing, KeyScope, LiveAccount } from '../referee/index.js';

/** A key's scopes as GraphQL names them (docs/players.md, "Scopes"). */
export enum Scope {
  READ = 'read',
  PLAY = 'play',
  CREATE_GAMES = 'create_games',
  TOURNAMENTS = 'tournaments',
  WEBHOOKS = 'webhooks',
  PLAYERS = 'players',
}
registerEnumType(Scope, {
  name: 'Scope',
  description: 'What a key may do (docs/players.md): each operation needs one scope, and a key without it is refused with SCOPE_MISSING',
  valuesMap: {
    READ: { description: 'Read games, tournaments, records, events' },
    PLAY: { description: 'Move, join, resign, offer, clock commands' },
    CREATE_GAMES: { description: 'Create and import games' },
    TOURNAMENTS: { description: 'Create and run tournaments, register and withdraw' },
    WEBHOOKS: { description: 'Register, list and delete webhooks' },
    PLAYERS: { description: "An app's: create players and manage their keys" },
  },
});

@ObjectType({ description: 'A player: the identity seats and keys act for' })
export class Player {
  @Field(() => ID, { description: "The player's id (pl-...)" }) id: string;
  @Field({ description: 'Its display name' }) name: string;
  @Field(() => String, { nullable: true, description: "The app's own id for the player; null for a player no app created" }) externalId: string | null;
  @Field(() => ID, { nullable: true, description: 'The app that created it and manages its keys; null for a player that created itself' }) appId: string | null;
  @Field({ description: 'When it was created' }) createdAt: Date;
}

@ObjectType({ description: "An integrator's app: it creates players and manages their keys" })
export class App {
  @Field(() => ID, { description: "The app's id (ap-...)" }) id: string;
  @Field({ description: 'Its display name' }) name: string;
  @Field({ description: 'When it was created' }) createdAt: Date;
}

@ObjectType({ description: 'A key as its holder lists it: never its secret' })
export class Key {
  @Field(() => ID, { description: "The key's id (rotate or revoke it by this)" }) id: string;
  @Field({ description: 'Its first characters, to recognise it by (arbk_ a player, arba_ an app)' }) prefix: string;
  @Field(() => [Scope], { description: 'What it may do' }) scopes: Scope[];
  @Field({ description: 'When it was issued' }) createdAt: Date;
  @Field(() => Date, { nullable: true, description: 'When it was last used (to the minute); null if never' }) lastUsedAt: Date | null;
  @Field(() => Date, { nullable: true, description: 'When it was revoked; null while it holds' }) revokedAt: Date | null;
}

@ObjectType({ description: 'A key just issued or rotated, with its secret: shown this once, stored nowhere' })
export class IssuedKey extends Key {
  @Field({ description: 'The key: send it as `Authorization: Bearer <key>`. Keep it secret; it is never shown again' }) secret: string;
}

@ObjectType({ description: 'A new player and its first key' })
export class PlayerCreated {
  @Field(() => Player, { description: 'The new player' }) player: Player;
  @Field(() => IssuedKey, { description: "The player's key, shown once" }) key: IssuedKey;
}

@ObjectType({ description: 'A new app and its first key' })
export class AppCreated {
  @Field(() => App, { description: 'The new app' }) app: App;
  @Field(() => IssuedKey, { description: "The app's key, shown once" }) key: IssuedKey;
}

export const CreatePlayerResult = orRejection('CreatePlayerResult', 'The player created with its first key (PlayerCreated), or why not, nothing stored (Rejection)', () => PlayerCreated);
export const CreateAppResult = orRejection('CreateAppResult', 'The app created with its first key (AppCreated), or why not, nothing stored (Rejection)', () => AppCreated);
export const IssuedKeyResult = orRejection('IssuedKeyResult', 'The key issued or rotated, with its secret (IssuedKey), or why not, nothing changed (Rejection)', () => IssuedKey);
export const RevokeKeyResult = orRejection('RevokeKeyResult', 'The key revoked (Key), or why not, nothing changed (Rejection)', () => Key);

@ObjectType({ description: "The caller as its key says: its player or its app, and that account's keys" })
export class Me {
  @Field(() => Player, { nullable: true, description: "The key's player; null for an app's key" }) player: Player | null;
  @Field(() => App, { nullable: true, description: "The key's app; null for a player's key" }) app: App | null;
  @Field(() => ID, { description: 'The key this request was made with' }) keyId: string;
  @Field(() => [Scope], { description: 'What the key this request was made with may do' }) scopes: Scope[];
  @Field(() => [Key], { description: 'The keys of the account, revoked ones included, oldest first' }) keys: Key[];
}

export const keyModel = (k: KeyListing): Key => ({ id: k.keyId, prefix: k.prefix, scopes: k.scopes as Scope[], createdAt: k.createdAt, lastUsedAt: k.lastUsedAt, revokedAt: k.revokedAt });
export const issuedModel = (k: { secret: string; key: KeyListing }): IssuedKey => ({ ...keyModel(k.key), secret: k.secret });
export const playerModel = (a: LiveAccount): Player => ({ id: a.accountId, name: a.name, externalId: a.externalId, appId: a.appId, createdAt: new Date(a.createdAt) });
export const appModel = (a: LiveAccount): App => ({ id: a.accountId, name: a.name, createdAt: new Date(a.createdAt) });
export const scopesOf = (scopes: Scope[] | null | undefined): KeyScope[] | null => (scopes ? (scopes as unknown as KeyScope[]) : null);
