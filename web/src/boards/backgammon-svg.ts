/**
 * The backgammon board as one SVG: the 24 points, checkers (counted above five), the bar, the
 * bear-off trays, the cube, the dice, a row per player (name, pips, borne off, score) and the
 * outcome. The bottom seat's home board is bottom right and its numbering labels the points.
 */
import type { BackgammonView, CheckerMove } from '../../../src/games/backgammon/engine/index.js';
import { type Markup, svg } from '../html.js';

/**
 * Colours as presentation attributes, so the board reads without the stylesheet. Both checker
 * colours keep WCAG AA for graphics (3:1) against the felt, both point colours and the bar; text
 * keeps 4.5:1 against what it is written on.
 */
export const PALETTE = {
  frame: '#3b2416',
  felt: '#3f7a5c',
  points: ['#b4553f', '#9c7a4c'],
  bar: '#8f7350',
  checker: ['#fbfaf5', '#141414'],
  checkerEdge: ['#4a4a4a', '#a8a8a8'],
  text: '#f3e9d8',
  muted: '#d6c6ab',
  mark: '#ffe45c',
  cube: '#f7f3e8',
  cubeText: '#141414',
};

/** What the board shows, worked out by the caller from the context. */
export interface Scene {
  view: BackgammonView;
  /** The seat drawn at the bottom (the viewer, else White); its numbering labels the points. */
  bottom: number;
  names: readonly [string, string];
  /** Seats that may act now, marked in their rows. */
  toAct: readonly number[];
  /** A play of the bottom seat to show on the board (the first listed), or none. */
  shown: readonly CheckerMove[];
  /** Once the game is over: who won, and how. */
  result: { headline: string; summary: string } | null;
  /** One line for screen readers. */
  title: string;
  /** While the bottom seat moves checkers by hand: the places it may click. */
  hand?: HandScene;
}

/** Places in the bottom seat's numbering. */
export interface HandScene {
  sources: readonly (number | 'bar')[];
  selected: number | 'bar' | null;
  targets: readonly (number | 'off')[];
}

// Geometry in viewBox units. A point is one checker wide and five checkers tall: more are counted.
const POINT_W = 40;
const RADIUS = 17;
const PITCH = 36;
const POINT_H = 5 * PITCH;
const TRIANGLE_H = POINT_H - 8;
const SIDE = 12;
const NUMBERS = 22;
const ROW = 46;
const MIDDLE = 48;
const BAR_W = 44;
const TRAY_W = 52;
const CUBE = 36;
const DIE = 30;
const SLAB = 9;
const PIP_STEP = 8;

const LEFT = SIDE;
const BAR_X = LEFT + 6 * POINT_W;
const RIGHT = BAR_X + BAR_W;
const RIGHT_END = RIGHT + 6 * POINT_W;
const TRAY_X = RIGHT_END + SIDE;
const WIDTH = TRAY_X + TRAY_W + SIDE;
const TOP = ROW + NUMBERS;
const MID = TOP + POINT_H;
const LOW = MID + MIDDLE;
const BOTTOM = LOW + POINT_H;
const HEIGHT = BOTTOM + NUMBERS + ROW;

/** Left edge of point p (bottom seat's numbering): 1–6 bottom right, 7–12 bottom left, 13–18 top left, 19–24 top right. */
function pointX(p: number): number {
  if (p <= 6) return RIGHT_END - p * POINT_W;
  if (p <= 12) return BAR_X - (p - 6) * POINT_W;
  if (p <= 18) return LEFT + (p - 13) * POINT_W;
  return RIGHT + (p - 19) * POINT_W;
}

const isUpper = (p: number): boolean => p >= 13;

function triangle(p: number): string {
  const x = pointX(p);
  const [base, apex] = isUpper(p) ? [TOP, TOP + TRIANGLE_H] : [BOTTOM, BOTTOM - TRIANGLE_H];
  return `M${x} ${base}L${x + POINT_W} ${base}L${x + POINT_W / 2} ${apex}Z`;
}

/**
 * Up to five checkers from (cx, y0) going `dir` (+1 down, −1 up); the fifth carries the count
 * when there are more. `point` names the place: a point number, "bar" or "off".
 */
function stack(seat: number, count: number, point: number | string, cx: number, y0: number, dir: number): Markup {
  const drawn = Math.min(count, 5);
  const checkers = Array.from({ length: drawn }, (_, k) => {
    const cy = y0 + dir * k * PITCH;
    const label = k === drawn - 1 && count > 5 ? svg`<text x="${cx}" y="${cy + 6}" text-anchor="middle" font-size="17" font-weight="700" fill="${PALETTE.checker[1 - seat]}">${count}</text>` : '';
    return svg`<circle cx="${cx}" cy="${cy}" r="${RADIUS}" fill="${PALETTE.checker[seat]}" stroke="${PALETTE.checkerEdge[seat]}" stroke-width="2"/>${label}`;
  });
  return svg`<g class="bg-checkers bg-seat-${seat}" data-point="${point}" data-seat="${seat}" data-count="${count}">${checkers}</g>`;
}

function points(scene: Scene): Markup[] {
  const marks: Markup[] = [];
  for (let p = 1; p <= 24; p++) {
    const x = pointX(p) + POINT_W / 2;
    // Point p and its opposite 25 − p differ in parity, so facing points differ in colour too.
    marks.push(svg`<path class="bg-point" d="${triangle(p)}" fill="${PALETTE.points[p % 2]}"/>`);
    marks.push(svg`<text class="bg-point-number" x="${x}" y="${isUpper(p) ? TOP - 5 : BOTTOM + 17}" text-anchor="middle" font-size="16" fill="${PALETTE.text}">${p}</text>`);
  }
  for (const seat of [0, 1]) {
    scene.view.board.sides[seat].points.forEach((count, i) => {
      if (count === 0) return;
      const p = seat === scene.bottom ? i + 1 : 24 - i;
      const y0 = isUpper(p) ? TOP + RADIUS + 1 : BOTTOM - RADIUS - 1;
      marks.push(stack(seat, count, p, pointX(p) + POINT_W / 2, y0, isUpper(p) ? 1 : -1));
    });
  }
  return marks;
}

/** The bar: the top seat's checkers above the middle, the bottom seat's below it. */
function bar(scene: Scene): Markup[] {
  const cx = BAR_X + BAR_W / 2;
  return [0, 1]
    .filter((seat) => scene.view.board.sides[seat].bar > 0)
    .map((seat) => {
      const bottom = seat === scene.bottom;
      return stack(seat, scene.view.board.sides[seat].bar, 'bar', cx, bottom ? LOW + RADIUS + 2 : MID - RADIUS - 2, bottom ? 1 : -1);
    });
}

/** Borne-off checkers as slabs in the tray beside each seat's home board, stacked from its edge. */
function trays(scene: Scene): Markup[] {
  return [0, 1].map((seat) => {
    const count = scene.view.board.sides[seat].off;
    const bottom = seat === scene.bottom;
    const slabs = Array.from({ length: count }, (_, k) => {
      const y = bottom ? BOTTOM - 2 - (k + 1) * SLAB : TOP + 2 + k * SLAB;
      return svg`<rect x="${TRAY_X + 6}" y="${y}" width="${TRAY_W - 12}" height="${SLAB - 2}" rx="2" fill="${PALETTE.checker[seat]}" stroke="${PALETTE.checkerEdge[seat]}"/>`;
    });
    return svg`<g class="bg-checkers bg-off bg-seat-${seat}" data-point="off" data-seat="${seat}" data-count="${count}">${slabs}</g>`;
  });
}

/** A cube face: the value, and 64 while the cube is untouched at 1, as on a real cube. */
function cubeFace(x: number, y: number, value: number): Markup {
  return svg`<rect x="${x}" y="${y}" width="${CUBE}" height="${CUBE}" rx="5" fill="${PALETTE.cube}" stroke="${PALETTE.cubeText}" stroke-width="2"/>
    <text x="${x + CUBE / 2}" y="${y + CUBE / 2 + 7}" text-anchor="middle" font-size="19" font-weight="700" fill="${PALETTE.cubeText}">${value === 1 ? 64 : value}</text>`;
}

/** The cube in the tray column: centred while nobody owns it, else at the inner end of its owner's tray. */
function cube(scene: Scene): Markup {
  const { value, owner } = scene.view.cube;
  const x = TRAY_X + (TRAY_W - CUBE) / 2;
  const y = owner === null ? MID + (MIDDLE - CUBE) / 2 : owner === scene.bottom ? LOW + 4 : MID - CUBE - 4;
  const label = owner === null ? `Cube at ${value}, centred` : `Cube at ${value}, owned by ${scene.names[owner]}`;
  return svg`<g class="bg-cube" data-value="${value}" data-owner="${owner ?? 'none'}" role="img" aria-label="${label}">${cubeFace(x, y, value)}</g>`;
}

/** Centre x of the middle strip where `seat` rolls: each player's right-hand half of the board. */
const rollingX = (scene: Scene, seat: number): number => (seat === scene.bottom ? RIGHT : LEFT) + 3 * POINT_W;

/** Where the pips sit on each face: −1, 0 or 1 step (PIP_STEP) from the centre across and down. */
// biome-ignore format: one face a line reads like the die
const PIPS: Record<number, [number, number][]> = {
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

function die(seat: number, value: number, cx: number): Markup {
  const x = cx - DIE / 2;
  const y = MID + (MIDDLE - DIE) / 2;
  const pips = PIPS[value].map(([dx, dy]) => svg`<circle cx="${cx + dx * PIP_STEP}" cy="${y + DIE / 2 + dy * PIP_STEP}" r="3.2" fill="${PALETTE.checker[1 - seat]}"/>`);
  return svg`<g class="bg-die" data-value="${value}" data-seat="${seat}"><rect x="${x}" y="${y}" width="${DIE}" height="${DIE}" rx="5" fill="${PALETTE.checker[seat]}" stroke="${PALETTE.checkerEdge[seat]}" stroke-width="2"/>${pips}</g>`;
}

/** The dice of the player on roll, or the cube a player has just offered, in his half. */
function middle(scene: Scene): Markup {
  const { dice, playerOnRoll, pendingDouble } = scene.view;
  if (pendingDouble) {
    const x = rollingX(scene, pendingDouble.by) - CUBE / 2;
    const label = `${scene.names[pendingDouble.by]} offers the cube at ${pendingDouble.value}`;
    return svg`<g class="bg-cube bg-cube-offered" data-value="${pendingDouble.value}" role="img" aria-label="${label}">${cubeFace(x, MID + (MIDDLE - CUBE) / 2, pendingDouble.value)}</g>`;
  }
  if (!dice) return svg``;
  const cx = rollingX(scene, playerOnRoll);
  return svg`<g class="bg-dice" role="img" aria-label="Dice ${dice[0]} and ${dice[1]}">${die(playerOnRoll, dice[0], cx - 20)}${die(playerOnRoll, dice[1], cx + 20)}</g>`;
}

/**
 * Outlines where the shown play takes checkers from (solid) and leaves them (dashed); a point a
 * checker only passes through is not outlined. The bar and the tray are the bottom seat's.
 */
function shownPlay(scene: Scene): Markup[] {
  const net = new Map<number | 'bar' | 'off', number>();
  for (const { from, to } of scene.shown) {
    net.set(from, (net.get(from) ?? 0) - 1);
    net.set(to, (net.get(to) ?? 0) + 1);
  }
  return [...net]
    .filter(([, change]) => change !== 0)
    .map(([where, change]) => {
      const role = change < 0 ? 'from' : 'to';
      const attrs = svg`class="bg-${role}" fill="none" stroke="${PALETTE.mark}" stroke-width="3" stroke-dasharray="${role === 'to' ? '6 4' : 'none'}"`;
      if (where === 'bar') return svg`<rect x="${BAR_X + 2}" y="${LOW + 1}" width="${BAR_W - 4}" height="${POINT_H - 2}" ${attrs}/>`;
      if (where === 'off') return svg`<rect x="${TRAY_X + 2}" y="${LOW + 1}" width="${TRAY_W - 4}" height="${POINT_H - 2}" ${attrs}/>`;
      return svg`<path d="${triangle(where)}" ${attrs} stroke-linejoin="round"/>`;
    });
}

/** What clicking a place does, in words. */
function pickLabel(where: number | 'bar' | 'off', hand: HandScene, count: number): string {
  const name = (w: number | 'bar' | 'off') => (w === 'bar' ? 'the bar' : w === 'off' ? 'off the board' : `point ${w}`);
  if (where === hand.selected) return `Put back the checker picked up from ${name(where)}`;
  if (hand.selected !== null && hand.targets.includes(where as number | 'off')) return `Move the checker from ${name(hand.selected)} to ${name(where)}`;
  return `Pick up a checker from ${name(where)} (${count} there)`;
}

/**
 * The places the bottom seat may click while moving by hand, each a button over its half of the
 * point (the bar's and the tray's lower halves): sources dotted, the picked checker's point solid,
 * its destinations dashed.
 */
function handLayer(scene: Scene): Markup[] {
  const hand = scene.hand;
  if (!hand) return [];
  const side = scene.view.board.sides[scene.bottom];
  const places: (number | 'bar' | 'off')[] = hand.selected === null ? [...hand.sources] : [hand.selected, ...hand.sources.filter((s) => s !== hand.selected), ...hand.targets];
  // Tab order as the checkers travel: the bar, then from the 24-point down, then off.
  places.sort((a, b) => (b === 'bar' ? 25 : b === 'off' ? 0 : b) - (a === 'bar' ? 25 : a === 'off' ? 0 : a));
  return [...new Set(places)].map((where) => {
    const [x, w] = where === 'bar' ? [BAR_X, BAR_W] : where === 'off' ? [TRAY_X, TRAY_W] : [pointX(where), POINT_W];
    const y = typeof where === 'number' && isUpper(where) ? TOP : LOW;
    const role = where === hand.selected ? 'selected' : hand.targets.includes(where as number | 'off') ? 'target' : 'source';
    const count = where === 'bar' ? side.bar : where === 'off' ? side.off : side.points[where - 1];
    const dash = role === 'target' ? '8 5' : role === 'source' ? '2 5' : 'none';
    return svg`<g class="bg-pick bg-pick-${role}" data-pick="${where}" role="button" tabindex="0" aria-label="${pickLabel(where, hand, count)}"${role === 'selected' ? svg` aria-pressed="true"` : ''}>
      <rect x="${x + 1.5}" y="${y + 1.5}" width="${w - 3}" height="${POINT_H - 3}" rx="4" fill="${PALETTE.mark}" fill-opacity="${role === 'selected' ? 0.28 : 0.01}" stroke="${PALETTE.mark}" stroke-width="${role === 'source' ? 2 : 3}" stroke-dasharray="${dash}"/></g>`;
  });
}

/** Long names are cut so the pips and score keep their place. */
const cut = (name: string): string => (name.length > 22 ? `${name.slice(0, 21)}…` : name);

/** A player's row: a marker when he may act, his colour, name, pips and borne-off count, and his score. */
function playerRow(scene: Scene, seat: number): Markup {
  const y = seat === scene.bottom ? BOTTOM + NUMBERS : 0;
  const side = scene.view.board.sides[seat];
  const acting = scene.toAct.includes(seat);
  const marker = acting ? svg`<path class="bg-turn" d="M${SIDE} ${y + 13}L${SIDE + 14} ${y + 23}L${SIDE} ${y + 33}Z" fill="${PALETTE.mark}"/>` : '';
  const detail = `${side.pipCount} pips${side.off ? ` · ${side.off} off` : ''}`;
  const scoreX = WIDTH - SIDE - 48;
  return svg`<g class="bg-player bg-seat-${seat}${acting ? ' bg-acting' : ''}" data-seat="${seat}">${marker}
    <circle cx="${SIDE + 32}" cy="${y + 23}" r="11" fill="${PALETTE.checker[seat]}" stroke="${PALETTE.checkerEdge[seat]}" stroke-width="2"/>
    <text x="${SIDE + 52}" y="${y + 30}" font-size="22" font-weight="700" fill="${PALETTE.text}">${cut(scene.names[seat])}</text>
    <text x="${scoreX - 10}" y="${y + 29}" text-anchor="end" font-size="17" fill="${PALETTE.muted}">${detail}</text>
    <rect x="${scoreX}" y="${y + 6}" width="48" height="34" rx="5" fill="none" stroke="${PALETTE.muted}"/>
    <text class="bg-score" x="${scoreX + 24}" y="${y + 30}" text-anchor="middle" font-size="22" font-weight="700" fill="${PALETTE.text}">${scene.view.score[seat]}</text></g>`;
}

function outcome(scene: Scene): Markup {
  if (!scene.result) return svg``;
  const cx = (LEFT + RIGHT_END) / 2;
  return svg`<g class="bg-result"><rect x="${LEFT + 30}" y="${MID - 44}" width="${RIGHT_END - LEFT - 60}" height="${MIDDLE + 88}" rx="8" fill="${PALETTE.frame}" fill-opacity="0.94" stroke="${PALETTE.mark}" stroke-width="3"/>
    <text x="${cx}" y="${MID + 10}" text-anchor="middle" font-size="28" font-weight="700" fill="${PALETTE.text}">${scene.result.headline}</text>
    <text x="${cx}" y="${MID + 44}" text-anchor="middle" font-size="16" fill="${PALETTE.muted}">${scene.result.summary}</text></g>`;
}

export function drawBoard(scene: Scene): Markup {
  const top = 1 - scene.bottom;
  return svg`<svg class="bg-svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" role="${scene.hand ? 'group' : 'img'}" aria-label="${scene.title}" font-family="system-ui, sans-serif">
  <rect width="${WIDTH}" height="${HEIGHT}" fill="${PALETTE.frame}"/>
  <rect x="${LEFT}" y="${TOP}" width="${6 * POINT_W}" height="${BOTTOM - TOP}" fill="${PALETTE.felt}"/>
  <rect x="${RIGHT}" y="${TOP}" width="${6 * POINT_W}" height="${BOTTOM - TOP}" fill="${PALETTE.felt}"/>
  <rect class="bg-bar" x="${BAR_X}" y="${TOP}" width="${BAR_W}" height="${BOTTOM - TOP}" fill="${PALETTE.bar}"/>
  <rect class="bg-tray" x="${TRAY_X}" y="${TOP}" width="${TRAY_W}" height="${BOTTOM - TOP}" fill="${PALETTE.felt}"/>
  ${points(scene)}${bar(scene)}${trays(scene)}${cube(scene)}${middle(scene)}${shownPlay(scene)}
  ${playerRow(scene, top)}${playerRow(scene, scene.bottom)}${handLayer(scene)}${outcome(scene)}
</svg>`;
}
