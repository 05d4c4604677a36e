/**
 * The table as a rooted tree (docs/rules/chicken-foot.md §5). Nodes are kept in placement order in a flat array
 * (node 0 is the hub) so a state stays plain JSON; each node names its parent and children by index.
 * The board phase and the open targets are always derived from the tree, never stored (docs/rules/chicken-foot.md §6.1).
 */
import { contains, isDouble, otherEnd, type TileId } from './tiles.js';

export type NodeKind = 'hub' | 'line' | 'foot';

export interface TableNode {
  tile: TileId;
  kind: NodeKind;
  /** The value a tile attached here must contain: the hub's or foot's pip, a line tile's outer end. */
  value: number;
  /** Index of the parent node; -1 for the hub. */
  parent: number;
  children: number[];
}

export type BoardPhase = 'OPENING' | 'OPEN' | 'FOOT_OPEN';

/** Target name of the hub in actions; every other node is named by its tile id. */
export const HUB = 'hub';

export interface TableLimits {
  hubRequiredArms: number;
  hubCapacity: number;
  toesPerFoot: number;
}

export function newTable(hubDouble: number): TableNode[] {
  return [{ tile: `${hubDouble}-${hubDouble}`, kind: 'hub', value: hubDouble, parent: -1, children: [] }];
}

/** The foot still waiting for toes, if any (at most one can exist, docs/rules/chicken-foot.md §2.1, I3). */
export function openFoot(table: readonly TableNode[], limits: TableLimits): number {
  for (let i = 1; i < table.length; i++) {
    const node = table[i];
    if (node.kind === 'foot' && node.children.length < limits.toesPerFoot) return i;
  }
  return -1;
}

export function boardPhase(table: readonly TableNode[], limits: TableLimits): BoardPhase {
  if (openFoot(table, limits) >= 0) return 'FOOT_OPEN';
  return table[0].children.length < limits.hubRequiredArms ? 'OPENING' : 'OPEN';
}

/** Indexes of the nodes a tile may be attached to now (docs/rules/chicken-foot.md §6.2), in placement order. */
export function targets(table: readonly TableNode[], limits: TableLimits): number[] {
  const foot = openFoot(table, limits);
  if (foot >= 0) return [foot];
  const arms = table[0].children.length;
  if (arms < limits.hubRequiredArms) return [0];
  const open: number[] = arms < limits.hubCapacity ? [0] : [];
  for (let i = 1; i < table.length; i++) {
    if (table[i].kind === 'line' && table[i].children.length === 0) open.push(i);
  }
  return open;
}

/** The name of a node in actions and views: "hub" or the node's tile id. */
export const targetName = (table: readonly TableNode[], index: number): string => (index === 0 ? HUB : table[index].tile);

/** Index of the node a target name refers to (the hub may be named "hub" or by its tile), or -1. */
export function findNode(table: readonly TableNode[], name: string): number {
  if (name === HUB) return 0;
  return table.findIndex((node) => node.tile === name);
}

/** A new table with `tile` attached to node `at` (the caller has checked that it matches). */
export function attach(table: readonly TableNode[], at: number, tile: TileId): TableNode[] {
  const parent = table[at];
  const next = table.slice();
  const index = table.length;
  next[at] = { ...parent, children: [...parent.children, index] };
  const double = isDouble(tile);
  next.push({ tile, kind: double ? 'foot' : 'line', value: double ? parent.value : otherEnd(tile, parent.value), parent: at, children: [] });
  return next;
}

/** True when some tile of `hand` contains the value of one of the target nodes. */
export function hasPlay(table: readonly TableNode[], open: readonly number[], hand: readonly TileId[]): boolean {
  for (const at of open) {
    const v = table[at].value;
    for (const tile of hand) if (contains(tile, v)) return true;
  }
  return false;
}

export interface TreeView {
  tile: TileId;
  kind: NodeKind;
  value: number;
  /** True when the node is a current target. */
  open: boolean;
  children: TreeView[];
}

/** The table as a nested tree for views. */
export function treeView(table: readonly TableNode[], open: readonly number[]): TreeView {
  const build = (i: number): TreeView => ({
    tile: table[i].tile,
    kind: table[i].kind,
    value: table[i].value,
    open: open.includes(i),
    children: table[i].children.map(build),
  });
  return build(0);
}
