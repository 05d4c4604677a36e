import { type CanActivate, type ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext } from '@nestjs/graphql';
import type { FastifyRequest } from 'fastify';
import { KeyDirectory, type KeyScope, RefereeError, requireScope } from '../referee/index.js';
import { type GqlContext, holderOf } from './caller.js';

/** The metadata key: the scope an operation needs of a player's or an app's key, or null (any caller; the operation checks its own authority). */
export const NEEDS = 'arbiter:needs';

/**
 * The scope a GraphQL operation or REST route needs of a player's or an app's key
 * (docs/players.md, "Scopes"); a key without it is refused with SCOPE_MISSING. Seat,
 * participant and organizer tokens and anonymous callers are not a scope's business.
 */
export const Needs = (scope: KeyScope) => SetMetadata(NEEDS, scope);

/** No scope: any caller (the operation checks its own authority, or serves what anyone may read). */
export const Public = () => SetMetadata(NEEDS, null);

/** Whether a handler says what it needs (test/e2e/scopes.spec.ts checks every operation does). */
export const needsOf = (reflector: Reflector, handler: object): KeyScope | null | undefined => reflector.get<KeyScope | null | undefined>(NEEDS, handler as never);

/**
 * The global guard: every GraphQL operation (not a field of an answer) and REST route checks the
 * caller's key against the scope it needs. The key's holder is looked up once per request (and
 * refused when unknown, rotated or revoked); an operation that says nothing refuses every key.
 */
@Injectable()
export class ScopesGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: KeyDirectory,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const type = context.getType<'http' | 'graphql' | 'ws'>();
    let caller: GqlContext | FastifyRequest;
    if (type === 'graphql') {
      const gql = GqlExecutionContext.create(context);
      // Fields of an answer are the operation's: only the root fields are checked.
      if (gql.getInfo()?.path?.prev !== undefined) return true;
      caller = gql.getContext<GqlContext>();
    } else if (type === 'http') caller = context.switchToHttp().getRequest<FastifyRequest>();
    else return true;
    const holder = await holderOf(caller, this.keys);
    if (!holder) return true;
    const needs = needsOf(this.reflector, context.getHandler());
    if (needs === undefined) throw new RefereeError('SCOPE_MISSING', 'this operation names no scope, so no key may call it');
    if (needs !== null) requireScope(holder, needs);
    return true;
  }
}
