import { ArgsType, Field, Int } from '@nestjs/graphql';
import { RefereeError } from '../referee/index.js';
import { type Connection, pageOf } from './connection.js';

/**
 * Pages of a hash-chained log (a game's or a tournament's events: seq 1 to its version, none
 * missing) as a Relay connection whose cursor is the event's seq: `after: "12"` answers what the
 * subscriptions answer with `afterSeq: 12`, so a client pages, then follows, from one number.
 */

/** The most events one page holds (and what a page holds when neither first nor last is given). */
export const MAX_EVENTS_PAGE = 1000;

@ArgsType()
export class EventPageArgs {
  @Field(() => Int, { nullable: true, description: `The first events after \`after\` (0 to ${MAX_EVENTS_PAGE}); ${MAX_EVENTS_PAGE} when neither first nor last is given` })
  first: number | null;
  @Field(() => String, { nullable: true, description: 'A cursor (an event\'s seq, e.g. "12"): the events after it; omitted or "0": from the first event' })
  after: string | null;
  @Field(() => Int, { nullable: true, description: `The last events before \`before\` (0 to ${MAX_EVENTS_PAGE}): pages backwards from the newest` })
  last: number | null;
  @Field(() => String, { nullable: true, description: "A cursor (an event's seq): the events before it; omitted: up to the newest" })
  before: string | null;
}

/** The seqs a page holds, (afterSeq, afterSeq + count], and whether the log has events past either end. */
export interface SeqRange {
  afterSeq: number;
  count: number;
  hasPreviousPage: boolean;
  hasNextPage: boolean;
}

const seqOf = (cursor: string | null, name: string): number | null => {
  if (cursor === null || cursor === undefined) return null;
  if (!/^\d{1,9}$/.test(cursor)) throw new RefereeError('INVALID_INPUT', `${name} must be a cursor of this list: an event's seq, a whole number ("0" or more)`);
  return Number(cursor);
};

const sizeOf = (size: number | null, name: string): number | null => {
  if (size === null || size === undefined) return null;
  if (!Number.isInteger(size) || size < 0 || size > MAX_EVENTS_PAGE) throw new RefereeError('INVALID_INPUT', `${name} must be between 0 and ${MAX_EVENTS_PAGE}`);
  return size;
};

/** The page `args` ask for of a log of `version` events; refuses malformed cursors and sizes before any read. */
export function seqRange(args: EventPageArgs, version: number): SeqRange {
  const first = sizeOf(args.first, 'first');
  const last = sizeOf(args.last, 'last');
  if (first !== null && last !== null) throw new RefereeError('INVALID_INPUT', 'give first (with after) to page forwards or last (with before) to page backwards, not both');
  const after = seqOf(args.after, 'after') ?? 0;
  const before = seqOf(args.before, 'before') ?? version + 1;
  let lo = after + 1;
  let hi = Math.min(before - 1, version);
  if (last !== null) lo = Math.max(lo, hi - last + 1);
  else hi = Math.min(hi, lo + (first ?? MAX_EVENTS_PAGE) - 1);
  const count = Math.max(0, hi - lo + 1);
  return { afterSeq: lo - 1, count, hasPreviousPage: version > 0 && lo > 1, hasNextPage: count > 0 ? hi < version : lo <= version };
}

/** The connection of a page of events read for `range`, the log holding `version` events. */
export function seqConnection<N extends { seq: number }>(events: N[], range: SeqRange, version: number): Connection<N> & { totalCount: number } {
  const edges = events.map((node) => ({ cursor: String(node.seq), node }));
  return { ...pageOf(edges, { hasNextPage: range.hasNextPage, hasPreviousPage: range.hasPreviousPage }), totalCount: version };
}
