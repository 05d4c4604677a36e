/**
 * Dominoes as the Chicken Foot board draws them, and the words players use for tiles ("6|4") and
 * for places on the table ("arm 2, toe 3"). Pure functions of the view: nothing here runs engine code.
 */
import type { TileId, TreeView } from '../../../src/games/chicken-foot/engine/index.js';
import { type Markup, svg } from '../html.js';

/** Both pips of a tile id "a-b". */
export function pipsOf(tile: TileId): [number, number] {
  const dash = tile.indexOf('-');
  return [Number(tile.slice(0, dash)), Number(tile.slice(dash + 1))];
}

/** "6|4": a tile as players call it, larger end first. */
export function face(tile: TileId): string {
  const [a, b] = pipsOf(tile);
  return `${Math.max(a, b)}|${Math.min(a, b)}`;
}

/** Every node of the table tree, hub first, in placement order along each arm. */
export function tableNodes(hub: TreeView): TreeView[] {
  return [hub, ...hub.children.flatMap(tableNodes)];
}

/**
 * What players call each place a tile can go: "the hub", "foot 6|6", and for line tiles the arm
 * (numbered from 1 in the order the arms were laid) and the toes taken on the way ("arm 2, toe 3").
 * A line's open end is named by its last tile, so every open end gets a name of its own.
 */
export function placeNames(hub: TreeView): Map<TileId, string> {
  const names = new Map<TileId, string>([[hub.tile, 'the hub']]);
  const walk = (node: TreeView, arm: number, toes: number[]) => {
    names.set(node.tile, node.kind === 'foot' ? `foot ${face(node.tile)}` : toes.length > 0 ? `arm ${arm}, toe ${toes.join('.')}` : `arm ${arm}`);
    node.children.forEach((child, k) => {
      walk(child, arm, node.kind === 'foot' ? [...toes, k + 1] : toes);
    });
  };
  hub.children.forEach((first, i) => {
    walk(first, i + 1, []);
  });
  return names;
}

/** Keeps the markup short: coordinates to a hundredth of a unit. */
export const n = (v: number): number => Math.round(v * 100) / 100;

/** Pip positions of 0 to 9 on a 3x3 grid (column, row in -1..1) of an upright half; transposed when the tile lies flat. */
const PIPS: readonly (readonly (readonly [number, number])[])[] = [
  [],
  [[0, 0]],
  [
    [-1, -1],
    [1, 1],
  ],
  [
    [-1, -1],
    [0, 0],
    [1, 1],
  ],
  [
    [-1, -1],
    [1, -1],
    [-1, 1],
    [1, 1],
  ],
  [
    [-1, -1],
    [1, -1],
    [0, 0],
    [-1, 1],
    [1, 1],
  ],
  [
    [-1, -1],
    [-1, 0],
    [-1, 1],
    [1, -1],
    [1, 0],
    [1, 1],
  ],
  [
    [-1, -1],
    [-1, 0],
    [-1, 1],
    [0, 0],
    [1, -1],
    [1, 0],
    [1, 1],
  ],
  [
    [-1, -1],
    [0, -1],
    [1, -1],
    [-1, 0],
    [1, 0],
    [-1, 1],
    [0, 1],
    [1, 1],
  ],
  [
    [-1, -1],
    [0, -1],
    [1, -1],
    [-1, 0],
    [0, 0],
    [1, 0],
    [-1, 1],
    [0, 1],
    [1, 1],
  ],
];

/** The largest value drawn as pips: nine fill the 3x3 grid; higher sets are drawn with numerals. */
export const MAX_PIPS = PIPS.length - 1;

export interface DominoShape {
  cx: number;
  cy: number;
  /** The short side; the long side is twice as long. */
  size: number;
  vertical: boolean;
  /** The values of the top (upright) or left (flat) half, then of the other half. */
  halves: readonly [number, number];
  numerals: boolean;
  /** The half shown as an open end. */
  openHalf?: 0 | 1;
}

export interface DominoMarks {
  /** Extra classes: cf-open, cf-hub, cf-foot, cf-playable, cf-action... */
  classes: string;
  /** Extra attributes (data-tile, data-action...), built with `svg`. */
  attrs: Markup;
  /** Outline the tile: an open end on the table, a playable tile in the hand. */
  highlight?: boolean;
  /** A tooltip. */
  title?: string;
}

/**
 * One domino as a group whose first child is its outline rect (tests read the tile's extent there).
 * Colours are presentation attributes so the board reads without the page's stylesheet; `cf-`
 * classes let the stylesheet restyle them.
 */
export function domino(d: DominoShape, marks: DominoMarks): Markup {
  const w = d.vertical ? d.size : 2 * d.size;
  const h = d.vertical ? 2 * d.size : d.size;
  const x = d.cx - w / 2;
  const y = d.cy - h / 2;
  const halfCentre = (i: 0 | 1): [number, number] => (d.vertical ? [d.cx, d.cy + (i === 0 ? -1 : 1) * (d.size / 2)] : [d.cx + (i === 0 ? -1 : 1) * (d.size / 2), d.cy]);
  const half = (i: 0 | 1) => {
    const [hx, hy] = halfCentre(i);
    const value = d.halves[i];
    const highlight =
      d.openHalf === i ? svg`<rect class="cf-open-end" x="${n(hx - d.size / 2 + 1)}" y="${n(hy - d.size / 2 + 1)}" width="${n(d.size - 2)}" height="${n(d.size - 2)}" fill="#ffd54a"/>` : '';
    if (d.numerals) {
      const text =
        value === 0 ? '' : svg`<text class="cf-numeral" x="${n(hx)}" y="${n(hy)}" dy="0.35em" text-anchor="middle" font-size="${n(d.size * 0.6)}" font-weight="700" fill="#1d1d1d">${value}</text>`;
      return svg`${highlight}${text}`;
    }
    const step = d.size * 0.27;
    const pips = PIPS[value].map(([c, r]) => {
      const [dx, dy] = d.vertical ? [c, r] : [r, c];
      return svg`<circle class="cf-pip" cx="${n(hx + dx * step)}" cy="${n(hy + dy * step)}" r="${n(d.size * 0.09)}" fill="#1d1d1d"/>`;
    });
    return svg`${highlight}${pips}`;
  };
  const divider = d.vertical
    ? svg`<line class="cf-divider" x1="${n(x + 2)}" y1="${n(d.cy)}" x2="${n(x + w - 2)}" y2="${n(d.cy)}" stroke="#8a8478" stroke-width="${n(d.size * 0.05)}"/>`
    : svg`<line class="cf-divider" x1="${n(d.cx)}" y1="${n(y + 2)}" x2="${n(d.cx)}" y2="${n(y + h - 2)}" stroke="#8a8478" stroke-width="${n(d.size * 0.05)}"/>`;
  const title = marks.title ? svg`<title>${marks.title}</title>` : '';
  return svg`<g class="${marks.classes ? `cf-tile ${marks.classes}` : 'cf-tile'}" ${marks.attrs}><rect class="cf-domino" x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" rx="${n(d.size * 0.15)}" fill="#fbf7ea" stroke="${marks.highlight ? '#e08a00' : '#3a3a3a'}" stroke-width="${n(d.size * (marks.highlight ? 0.16 : 0.07))}"/>${half(0)}${half(1)}${divider}${title}</g>`;
}
