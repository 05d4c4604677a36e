import type { Engine, Viewer } from '../engines/kit/index.js';
import { hashOf } from './canonical.js';
import type { ChancePayload, StoredEvent } from './events.js';

export interface EventViewContext {
  engine: Engine;
  before: unknown;
  after: unknown;
  viewer: Viewer;
}

/**
 * A hidden chance outcome (a shuffled boneyard) is served as its commitment,
 * SHA-256(canonical JSON of the values), plus what the engine lets this viewer see.
 */
export function chanceView(ctx: EventViewContext, e: StoredEvent): StoredEvent {
  const { chance } = e.payload as unknown as ChancePayload;
  if (!chance.hidden) return e;
  const { values, ...rest } = chance;
  return {
    ...e,
    payload: {
      chance: { ...rest, commitment: hashOf(values) },
      view: ctx.engine.chanceView ? ctx.engine.chanceView(ctx.before, ctx.after, values, ctx.viewer) : null,
    },
  };
}

export function actionView(ctx: EventViewContext, e: StoredEvent): StoredEvent {
  if (!ctx.engine.actionView || e.actor === null) return e;
  const action = (e.payload as { action: unknown }).action;
  return { ...e, payload: { action: ctx.engine.actionView(ctx.before, ctx.after, e.actor, action, ctx.viewer) } };
}
