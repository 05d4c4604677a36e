import type { Request } from 'express';

/** The GraphQL context: the HTTP request, or the graphql-ws connection's parameters. */
export interface GqlContext {
  req?: Request;
  connectionParams?: Record<string, unknown>;
}

const bearer = (value: unknown): string | null => {
  if (typeof value !== 'string') return null;
  const m = /^Bearer\s+(\S+)$/i.exec(value.trim());
  return m ? m[1] : null;
};

/** The caller's seat token: the Authorization header, or `authorization` in graphql-ws connection params. */
export function tokenOf(ctx: GqlContext | Request | undefined): string | null {
  if (!ctx) return null;
  if ('headers' in ctx && ctx.headers) return bearer(ctx.headers.authorization);
  const c = ctx as GqlContext;
  if (c.req?.headers) return bearer(c.req.headers.authorization);
  const params = c.connectionParams ?? {};
  return bearer(params.authorization ?? params.Authorization);
}
