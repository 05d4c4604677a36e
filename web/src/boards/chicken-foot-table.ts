/**
 * The Chicken Foot table as a tree: the hub in the middle, odd arms to its right and even arms to
 * its left, each arm a line of tiles laid end to end. A chicken foot stands crosswise and its toes
 * leave it one under the other. A line longer than the table is wide turns under itself and runs
 * back, so every row belongs to one line and nothing overlaps; the layout then picks the row length
 * that lets the whole table be drawn largest in its area, which keeps it inside however long the
 * arms grow.
 */
import type { TreeView } from '../../../src/games/chicken-foot/engine/index.js';
import { type Markup, svg } from '../html.js';
import { domino, face, n, placeNames } from './chicken-foot-tiles.js';

// Layout units: a tile is SHORT by LONG; the drawing scales them to fit the area.
const SHORT = 12;
const LONG = 2 * SHORT;
/** Room for one tile lying along its line, and the small gap to the next. */
const CELL = LONG + 2;
/** Half the hub's width plus room for the connectors and arm numbers between the hub and its arms. */
const ARM_START = SHORT / 2 + 24;
/** Where the connectors from the hub turn towards their arm. */
const ELBOW = SHORT / 2 + 8;
const ROW_GAP = 5;
/** A toe that starts far out still gets this many tiles per row before it turns. */
const MIN_ROW_TILES = 3;
const MARGIN = 6;
/** Longest row tried (no table needs more). */
const MAX_ROW_TILES = 40;

/** A tile placed on one side of the hub, by column (0 next to the hub) and row. */
interface Placed {
  node: TreeView;
  /** 1 right of the hub, -1 left of it. */
  side: 1 | -1;
  col: number;
  row: number;
  /** The way its line runs along the row: 1 away from the hub, -1 back towards it. */
  dir: 1 | -1;
  /** The tile it is attached to; null for the first tile of an arm (attached to the hub). */
  parent: Placed | null;
  /** The pip that touches the parent (the parent's open value). */
  inner: number;
  /** Distance from the hub's centre along the side, and height: set once rows are measured. */
  u: number;
  y: number;
}

/** The columns a line may use before it turns (it starts running away from the hub). */
interface Lane {
  lo: number;
  hi: number;
}

interface Layout {
  placed: Placed[];
  /** Arm number (from 1) of each arm's first tile. */
  arms: Map<Placed, number>;
  /** Whether some line had to turn. */
  turned: boolean;
  box: { left: number; top: number; right: number; bottom: number };
}

/** Half the extent of a tile along its line (feet and the hub stand crosswise). */
const alongHalf = (p: Placed) => (p.node.kind === 'line' ? LONG / 2 : SHORT / 2);
const acrossHalf = (p: Placed) => (p.node.kind === 'line' ? SHORT / 2 : LONG / 2);

/**
 * Lays one side's arms (`arms` as [arm number, first tile]) in rows of about `rowTiles` tiles. A
 * line that reaches the end of its lane turns under itself and runs back (as dominoes bend at the
 * table's edge). Rows are handed out in order, so a turn or a new toe always starts on a row nobody
 * uses yet; toes always run away from the hub, in a lane that starts past their foot, so the
 * foot's column stays free for the connector down to them.
 */
function laySide(hub: TreeView, arms: [number, TreeView][], side: 1 | -1, rowTiles: number): Omit<Layout, 'box'> {
  const placed: Placed[] = [];
  const starts = new Map<Placed, number>();
  let lastRow = -1;
  let turned = false;
  const freshRow = () => ++lastRow;
  const line = (first: TreeView, parent: Placed | null, inner: number, col: number, row: number, lane: Lane): Placed => {
    let at: { node: TreeView; parent: Placed | null; inner: number } | undefined = { node: first, parent, inner };
    let dir: 1 | -1 = 1;
    let c = col;
    let r = row;
    let head: Placed | null = null;
    while (at) {
      if (c > lane.hi || c < lane.lo) {
        c -= dir;
        dir = dir === 1 ? -1 : 1;
        r = freshRow();
        turned = true;
      }
      const p: Placed = { ...at, side, col: c, row: r, dir, u: 0, y: 0 };
      placed.push(p);
      head ??= p;
      if (p.node.kind === 'foot') {
        const toes = { lo: c + 1, hi: Math.max(rowTiles - 1, c + MIN_ROW_TILES) };
        // The first toe carries on along the foot's row when the line was running outwards anyway.
        p.node.children.forEach((toe, k) => {
          line(toe, p, p.node.value, c + 1, k === 0 && dir === 1 ? r : freshRow(), toes);
        });
        break;
      }
      const next: TreeView | undefined = p.node.children[0];
      at = next && { node: next, parent: p, inner: p.node.value };
      c += dir;
    }
    return head!;
  };
  for (const [number, first] of arms) starts.set(line(first, null, hub.value, 0, freshRow(), { lo: 0, hi: rowTiles - 1 }), number);

  // Rows holding a crosswise foot are taller; the side is centred on the hub.
  const half = new Array<number>(lastRow + 1).fill(SHORT / 2);
  for (const p of placed) half[p.row] = Math.max(half[p.row], acrossHalf(p));
  const rowY: number[] = [];
  for (let r = 0; r < half.length; r++) rowY.push(r === 0 ? half[r] : rowY[r - 1] + half[r - 1] + ROW_GAP + half[r]);
  const height = rowY.length > 0 ? rowY[rowY.length - 1] + half[half.length - 1] : 0;
  for (const p of placed) {
    p.u = ARM_START + p.col * CELL + CELL / 2;
    p.y = rowY[p.row] - height / 2;
  }
  return { placed, arms: starts, turned };
}

function layout(hub: TreeView, rowTiles: number): Layout {
  const numbered = hub.children.map((first, i): [number, TreeView] => [i + 1, first]);
  const right = laySide(
    hub,
    numbered.filter(([arm]) => arm % 2 === 1),
    1,
    rowTiles,
  );
  const left = laySide(
    hub,
    numbered.filter(([arm]) => arm % 2 === 0),
    -1,
    rowTiles,
  );
  const placed = [...right.placed, ...left.placed];
  const box = { left: -SHORT / 2, top: -LONG / 2, right: SHORT / 2, bottom: LONG / 2 };
  for (const p of placed) {
    const far = p.u + alongHalf(p);
    if (p.side === 1) box.right = Math.max(box.right, far);
    else box.left = Math.min(box.left, -far);
    box.top = Math.min(box.top, p.y - acrossHalf(p));
    box.bottom = Math.max(box.bottom, p.y + acrossHalf(p));
  }
  // The margin holds a turn's connector (it runs a little past the row's last tile) and the arm numbers over the top row.
  box.left -= MARGIN;
  box.right += MARGIN;
  box.top -= 2 * MARGIN;
  box.bottom += MARGIN;
  return { placed, arms: new Map([...right.arms, ...left.arms]), turned: right.turned || left.turned, box };
}

/** The polyline from a tile's parent to the tile, as (distance from the hub, height) points. */
function connector(p: Placed): [number, number][] {
  const entry = p.u - p.dir * alongHalf(p);
  const parent = p.parent;
  if (!parent) {
    return [
      [SHORT / 2, 0],
      [ELBOW, 0],
      [ELBOW, p.y],
      [entry, p.y],
    ];
  }
  if (parent.row === p.row) {
    return [
      [parent.u + p.dir * alongHalf(parent), p.y],
      [entry, p.y],
    ];
  }
  if (parent.node.kind === 'foot') {
    return [
      [parent.u, parent.y + LONG / 2],
      [parent.u, p.y],
      [entry, p.y],
    ];
  }
  // A turn: out past the row's end, down, and back into the next row.
  const exit = parent.u + parent.dir * alongHalf(parent);
  const out = exit + parent.dir * 4;
  return [
    [exit, parent.y],
    [out, parent.y],
    [out, p.y],
    [entry, p.y],
  ];
}

export interface Area {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface TableDrawing {
  hub: TreeView;
  /** Draw numerals instead of pips (sets above double-9). */
  numerals: boolean;
  area: Area;
  /** Largest scale from layout units to the area's units, so an early table is not drawn huge. */
  maxScale: number;
  /** Ends the tile picked up can go on ("hub" or a tile), each with what clicking it does: they become buttons. */
  ends?: ReadonlyMap<string, string>;
}

/** The row length that lets the table be drawn largest in the area, and that scale. */
function bestFit(hub: TreeView, area: Area, maxScale: number): { table: Layout; scale: number } {
  let best: { table: Layout; scale: number } | null = null;
  for (let rowTiles = MIN_ROW_TILES; rowTiles <= MAX_ROW_TILES; rowTiles++) {
    const table = layout(hub, rowTiles);
    const { left, top, right, bottom } = table.box;
    const scale = Math.min(area.width / (right - left), area.height / (bottom - top), maxScale);
    // Longer rows win ties: lines turn only when that buys size.
    if (!best || scale >= best.scale) best = { table, scale };
    if (!table.turned) break;
  }
  return best!;
}

/**
 * The table tree drawn into `area`: tiles (each with `data-tile`), connectors, arm numbers, open
 * ends highlighted. Each tile's tooltip names its place, since toes are not numbered on the table.
 */
export function drawTable(t: TableDrawing): Markup {
  const { table, scale } = bestFit(t.hub, t.area, t.maxScale);
  const names = placeNames(t.hub);
  const { box } = table;
  const originX = t.area.x + t.area.width / 2 - ((box.left + box.right) / 2) * scale;
  const originY = t.area.y + t.area.height / 2 - ((box.top + box.bottom) / 2) * scale;
  const X = (side: number, u: number) => n(originX + side * u * scale);
  const Y = (y: number) => n(originY + y * scale);

  const links = table.placed.map((p) => {
    const d = connector(p)
      .map(([u, y], i) => `${i === 0 ? 'M' : 'L'}${X(p.side, u)} ${Y(y)}`)
      .join(' ');
    return svg`<path class="cf-link" d="${d}" fill="none" stroke="#cfe3d5" stroke-width="${n(1.5 * scale)}"/>`;
  });
  const armNumbers = [...table.arms].map(
    ([p, arm]) =>
      svg`<text class="cf-arm-number" x="${X(p.side, (ELBOW + ARM_START) / 2 + 2)}" y="${Y(p.y - 3)}" text-anchor="middle" font-size="${n(9 * scale)}" font-weight="700" fill="#fff3c4">${arm}</text>`,
  );
  const tile = (node: TreeView, cx: number, cy: number, vertical: boolean, halves: [number, number], openHalf?: 0 | 1) => {
    const kind = node.kind === 'line' ? '' : `cf-${node.kind}`;
    const classes = `${kind} ${node.open ? 'cf-open' : ''}`.trim();
    const place = node.kind === 'hub' ? `hub ${face(node.tile)}` : node.kind === 'foot' ? `chicken foot ${face(node.tile)}` : `${face(node.tile)} on ${names.get(node.tile)}`;
    const title = `${place}${node.open ? ' (open)' : ''}`;
    const end = node.kind === 'hub' ? 'hub' : node.tile;
    const label = t.ends?.get(end);
    const attrs = label ? svg`data-tile="${node.tile}" data-pick="end ${end}" role="button" tabindex="0" aria-label="${label}"` : svg`data-tile="${node.tile}"`;
    return domino({ cx, cy, size: SHORT * scale, vertical, halves, numerals: t.numerals, openHalf }, { classes: label ? `${classes} cf-end` : classes, attrs, highlight: node.open, title });
  };
  const tiles = table.placed.map((p) => {
    if (p.node.kind === 'foot') return tile(p.node, X(p.side, p.u), Y(p.y), true, [p.node.value, p.node.value]);
    // The touching pip faces the tile before it; the open value faces the way the line runs.
    const rightwards = p.side * p.dir === 1;
    const halves: [number, number] = rightwards ? [p.inner, p.node.value] : [p.node.value, p.inner];
    const outer = rightwards ? 1 : 0;
    return tile(p.node, X(p.side, p.u), Y(p.y), false, halves, p.node.open ? outer : undefined);
  });
  const hub = tile(t.hub, X(1, 0), Y(0), true, [t.hub.value, t.hub.value]);
  return svg`<g class="cf-table">${links}${armNumbers}${hub}${tiles}</g>`;
}
