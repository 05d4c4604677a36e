/**
 * exp, ln and sqrt from IEEE 754 additions, multiplications and divisions only (docs/ratings.md,
 * "Bit for bit"). ECMAScript fixes +, -, *, / and Math.round exactly, but lets every engine
 * approximate Math.exp and Math.log in its own way: a rating computed with them on one machine
 * might differ in its last bit on another. These take a fixed number of steps of exact
 * operations, so every engine computes the same double from the same input.
 */

const LN2 = Math.LN2;
/** ln 2 in two parts (fdlibm's): k · LN2_HI is exact for the k exp meets, so the reduction loses nothing. */
const LN2_HI = 0.6931471803691238;
const LN2_LO = 1.9082149292705877e-10;
const SQRT2 = Math.SQRT2;

/** x · 2^k, by exact doublings and halvings (no rounding while the result is a normal number). */
function scaleByPowerOfTwo(x: number, k: number): number {
  let y = x;
  for (let i = 0; i < k; i++) y *= 2;
  for (let i = 0; i > k; i--) y /= 2;
  return y;
}

/** e^x to within a few units in the last place, the same on every engine. */
export function exactExp(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  if (x > 709) return Number.POSITIVE_INFINITY;
  if (x < -745) return 0;
  // x = k·ln 2 + r with |r| ≤ ln 2 / 2; e^r by its Taylor series (24 terms: far below an ulp).
  const k = Math.round(x / LN2);
  const r = x - k * LN2_HI - k * LN2_LO;
  let term = 1;
  let sum = 1;
  for (let n = 1; n <= 24; n++) {
    term = (term * r) / n;
    sum += term;
  }
  return scaleByPowerOfTwo(sum, k);
}

/** The natural logarithm of x > 0, the same on every engine. */
export function exactLn(x: number): number {
  if (Number.isNaN(x) || x < 0) return Number.NaN;
  if (x === 0) return Number.NEGATIVE_INFINITY;
  if (x === Number.POSITIVE_INFINITY) return x;
  // x = m · 2^k with m in [√½, √2), then ln m = 2·atanh(s), s = (m − 1)/(m + 1), |s| < 0.172.
  let m = x;
  let k = 0;
  while (m >= SQRT2) {
    m /= 2;
    k++;
  }
  while (m < SQRT2 / 2) {
    m *= 2;
    k--;
  }
  const s = (m - 1) / (m + 1);
  const s2 = s * s;
  let power = s;
  let sum = 0;
  for (let n = 0; n < 16; n++) {
    sum += power / (2 * n + 1);
    power *= s2;
  }
  return k * LN2 + 2 * sum;
}

/** √x for x ≥ 0 by Newton's method from a reduced argument, the same on every engine. */
export function exactSqrt(x: number): number {
  if (Number.isNaN(x) || x < 0) return Number.NaN;
  if (x === 0 || x === Number.POSITIVE_INFINITY) return x;
  // x = m · 4^k with m in [1, 4): √x = √m · 2^k.
  let m = x;
  let k = 0;
  while (m >= 4) {
    m /= 4;
    k++;
  }
  while (m < 1) {
    m *= 4;
    k--;
  }
  let y = (1 + m) / 2;
  for (let i = 0; i < 8; i++) y = (y + m / y) / 2;
  return scaleByPowerOfTwo(y, k);
}

/** The stored precision of every rating number: six decimal places (docs/ratings.md). */
export const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;
