/**
 * Tiles of a double-N set. A tile's canonical id is "a-b" with a <= b (docs/rules/chicken-foot.md §1); ids are
 * the only tile representation kept in states, so they stay plain JSON.
 */

export type TileId = string;

/** Largest pip value any supported set uses (double-18). */
export const MAX_PIP = 18;

const pipCache = new Map<TileId, readonly [number, number]>();

/** The two pips of a canonical tile id, smaller first. */
export function pips(tile: TileId): readonly [number, number] {
  let cached = pipCache.get(tile);
  if (!cached) {
    const dash = tile.indexOf('-');
    cached = [Number(tile.slice(0, dash)), Number(tile.slice(dash + 1))];
    pipCache.set(tile, cached);
  }
  return cached;
}

export const tileId = (a: number, b: number): TileId => (a <= b ? `${a}-${b}` : `${b}-${a}`);
export const doubleId = (v: number): TileId => `${v}-${v}`;

export function isDouble(tile: TileId): boolean {
  const [a, b] = pips(tile);
  return a === b;
}

export function contains(tile: TileId, v: number): boolean {
  const [a, b] = pips(tile);
  return a === v || b === v;
}

/** The pip left free when `tile` is attached by its `v` end. */
export function otherEnd(tile: TileId, v: number): number {
  const [a, b] = pips(tile);
  return a === v ? b : a;
}

/** T(N) = (N+1)(N+2)/2. */
export const setSize = (n: number): number => ((n + 1) * (n + 2)) / 2;

/** Total pips of a double-N set: N(N+1)(N+2)/2. */
export const setPips = (n: number): number => (n * (n + 1) * (n + 2)) / 2;

/** Every tile of the double-N set once, in canonical order (0-0, 0-1, ..., N-N): the order shuffles start from. */
export function buildSet(n: number): TileId[] {
  const tiles: TileId[] = [];
  for (let a = 0; a <= n; a++) for (let b = a; b <= n; b++) tiles.push(tileId(a, b));
  return tiles;
}

/**
 * Null when `tiles` is exactly one double-N set (T(N) distinct tiles, each pair once), else what is
 * wrong. Guards against the published mistakes docs/rules/chicken-foot.md §2 names (a second 0-0, a 90-tile double-12).
 */
export function checkSet(tiles: readonly TileId[], n: number): string | null {
  if (tiles.length !== setSize(n)) return `a double-${n} set has ${setSize(n)} tiles, not ${tiles.length}`;
  const seen = new Set<TileId>();
  for (const t of tiles) {
    const bad = checkTileId(t, n);
    if (bad) return bad;
    if (seen.has(t)) return `tile ${t} appears twice`;
    seen.add(t);
  }
  return null;
}

const TILE_PATTERN = /^(\d{1,2})-(\d{1,2})$/;

/** The canonical id for text such as "9-2" or "2-9", or null when it is not a tile of a double-`n` set. */
export function normalizeTile(text: string, n: number = MAX_PIP): TileId | null {
  const m = TILE_PATTERN.exec(text);
  if (!m) return null;
  const a = Number(m[1]);
  const b = Number(m[2]);
  if (a > n || b > n) return null;
  return tileId(a, b);
}

function checkTileId(tile: TileId, n: number): string | null {
  return normalizeTile(tile, n) === tile ? null : `"${tile}" is not a canonical tile id of a double-${n} set ("a-b" with a <= b <= ${n})`;
}

/** Canonical order of tiles (by smaller pip, then larger): hands are kept sorted this way. */
export function compareTiles(x: TileId, y: TileId): number {
  const [xa, xb] = pips(x);
  const [ya, yb] = pips(y);
  return xa - ya || xb - yb;
}

export interface TileValues {
  doubleBlankValue: number;
  blankEndValue: number | null;
}

/** Score value of a tile left in hand (docs/rules/chicken-foot.md §10). */
export function tileValue(tile: TileId, values: TileValues): number {
  const [a, b] = pips(tile);
  if (a === 0 && b === 0) return values.doubleBlankValue;
  const blank = values.blankEndValue ?? 0;
  return (a === 0 ? blank : a) + (b === 0 ? blank : b);
}

export function handValue(hand: readonly TileId[], values: TileValues): number {
  let sum = 0;
  for (const t of hand) sum += tileValue(t, values);
  return sum;
}
