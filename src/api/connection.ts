import type { Type } from '@nestjs/common';
import { Field, Int, ObjectType } from '@nestjs/graphql';

/**
 * One pagination model (issue 26): every list that can grow is a Relay cursor connection,
 * `edges { cursor node }`, `nodes`, `pageInfo` (and `totalCount` where it is cheap), built here
 * by `connectionOf` and answered by `pageOf`.
 */

@ObjectType({ description: 'Where a page of a list starts and ends (Relay cursor connections)' })
export class PageInfo {
  @Field(() => String, { nullable: true, description: "The first item's cursor (`before` it pages backwards)" }) startCursor: string | null;
  @Field(() => String, { nullable: true, description: "The last item's cursor (`after` it pages forwards)" }) endCursor: string | null;
  @Field({ description: 'More items follow the page (known when paging forwards with `first`; false with `last`)' }) hasNextPage: boolean;
  @Field({ description: 'More items precede the page (known when paging backwards with `last`; false with `first`)' }) hasPreviousPage: boolean;
}

/** An item of a page with its cursor. */
export interface Edge<N> {
  cursor: string;
  node: N;
}

/** A page of a connection: its edges (with what else an edge of this list carries), their nodes, and where it starts and ends. */
export interface Connection<N, E extends Edge<N> = Edge<N>> {
  edges: E[];
  nodes: N[];
  pageInfo: PageInfo;
  /** Only on connections built with a `totalCount` description. */
  totalCount?: number;
}

/** What a connection's types and fields say; `items` names the list's items ("games") for the defaults. */
export interface ConnectionText {
  /** The connection type. */
  connection: string;
  /** The edge type. */
  edge: string;
  /** The edge's node. */
  node: string;
  /** The items, plural, for the default descriptions of `edges`, `nodes` and `pageInfo`. */
  items: string;
  cursor?: string;
  edges?: string;
  nodes?: string;
  pageInfo?: string;
  /** Adds `totalCount: Int!` with this description (the page's answer holds the number). */
  totalCount?: string;
}

/**
 * The `<name>Edge` and `<name>Connection` object types of a list of `node`s, sharing PageInfo.
 * `edgeFields`, a class of `@Field`s, adds what an edge of this list carries besides its cursor
 * and node (a player's seat in one of its games, say).
 */
export function connectionOf<N, X extends object = object>(node: Type<N>, name: string, text: ConnectionText, edgeFields?: Type<X>): Type<Connection<N, Edge<N> & X>> {
  const base = (edgeFields ?? class {}) as Type<object>;

  @ObjectType(`${name}Edge`, { description: text.edge })
  class EdgeType extends base {
    @Field({ description: text.cursor ?? 'Opaque: pass it as `after`' }) cursor: string;
    @Field(() => node, { description: text.node }) node: N;
  }

  class ConnectionType {
    @Field(() => [EdgeType], { description: text.edges ?? `The page's ${text.items} with their cursors` }) edges: (Edge<N> & X)[];
    @Field(() => [node], { description: text.nodes ?? `The page's ${text.items} (the edges' nodes)` }) nodes: N[];
    @Field(() => PageInfo, { description: text.pageInfo ?? `Where the page ends, and whether more ${text.items} follow it` }) pageInfo: PageInfo;
    totalCount?: number;
  }
  if (text.totalCount) Field(() => Int, { description: text.totalCount })(ConnectionType.prototype, 'totalCount');
  ObjectType(`${name}Connection`, { description: text.connection })(ConnectionType);
  return ConnectionType;
}

/** Where a page ends and whether more items follow or precede it; the cursors default to its first and last edges'. */
export interface PageBounds {
  hasNextPage: boolean;
  hasPreviousPage?: boolean;
  startCursor?: string | null;
  endCursor?: string | null;
}

/** A page's answer from its edges: their nodes, and its pageInfo (hasPreviousPage false unless told). */
export function pageOf<N, E extends Edge<N>>(edges: E[], bounds: PageBounds): Connection<N, E> {
  return {
    edges,
    nodes: edges.map((e) => e.node),
    pageInfo: {
      startCursor: bounds.startCursor !== undefined ? bounds.startCursor : (edges[0]?.cursor ?? null),
      endCursor: bounds.endCursor !== undefined ? bounds.endCursor : (edges.at(-1)?.cursor ?? null),
      hasNextPage: bounds.hasNextPage,
      hasPreviousPage: bounds.hasPreviousPage ?? false,
    },
  };
}
