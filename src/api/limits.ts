import { GraphQLError, Kind, type ASTVisitor, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from 'graphql';
import type { NextFunction, Request, Response } from 'express';
import { sha256Hex } from '../referee/core/canonical.js';
import { tokenOf } from './caller.js';

/**
 * Refuses operations nested deeper than `maxDepth` or selecting more than `maxFields` fields in
 * all (fragments expanded), before anything runs: a query's cost is bounded by its text.
 */
export function queryLimits(maxDepth: number, maxFields: number) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const d of context.getDocument().definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
    const measure = (set: SelectionSetNode, depth: number, seen: Set<string>): { depth: number; fields: number } => {
      let deepest = depth;
      let fields = 0;
      for (const sel of set.selections) {
        let inner: SelectionSetNode | undefined;
        let nextDepth = depth;
        if (sel.kind === Kind.FIELD) {
          fields++;
          inner = sel.selectionSet;
          nextDepth = depth + 1;
        } else if (sel.kind === Kind.INLINE_FRAGMENT) inner = sel.selectionSet;
        else {
          const f = fragments.get(sel.name.value);
          if (!f || seen.has(f.name.value)) continue;
          inner = f.selectionSet;
          seen = new Set(seen).add(f.name.value);
        }
        if (sel.kind === Kind.FIELD && !inner) deepest = Math.max(deepest, nextDepth);
        if (inner) {
          const m = measure(inner, nextDepth, seen);
          deepest = Math.max(deepest, m.depth);
          fields += m.fields;
        }
      }
      return { depth: deepest, fields };
    };
    return {
      OperationDefinition(op) {
        const m = measure(op.selectionSet, 0, new Set());
        if (m.depth > maxDepth) {
          context.reportError(new GraphQLError(`query depth ${m.depth} exceeds the limit of ${maxDepth}`, { extensions: { code: 'QUERY_TOO_DEEP' } }));
        }
        if (m.fields > maxFields) {
          context.reportError(new GraphQLError(`query selects ${m.fields} fields, more than the limit of ${maxFields}`, { extensions: { code: 'QUERY_TOO_COMPLEX' } }));
        }
      },
    };
  };
}

/**
 * A fixed-window limit per seat token (or per address without one). 0 turns it off. Answers
 * 429 with Retry-After and a JSON error, before any work is done.
 */
export function rateLimiter(perMinute: number) {
  const windows = new Map<string, { start: number; count: number }>();
  let sweep = Date.now();
  return (req: Request, res: Response, next: NextFunction) => {
    if (perMinute === 0 || req.path === '/healthz' || req.path === '/metrics') return next();
    const now = Date.now();
    if (now - sweep > 60_000) {
      for (const [k, w] of windows) if (now - w.start >= 60_000) windows.delete(k);
      sweep = now;
    }
    const token = tokenOf(req);
    const key = token ? `t:${sha256Hex(token)}` : `a:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
    let w = windows.get(key);
    if (!w || now - w.start >= 60_000) windows.set(key, (w = { start: now, count: 0 }));
    if (++w.count > perMinute) {
      const retryAfter = Math.max(1, Math.ceil((w.start + 60_000 - now) / 1000));
      res.setHeader('retry-after', String(retryAfter));
      res.status(429).json({ error: { code: 'RATE_LIMITED', message: `more than ${perMinute} requests a minute; retry in ${retryAfter} s` } });
      return;
    }
    next();
  };
}
