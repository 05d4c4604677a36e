/**
 * Exact rational numbers (T1.11): tournament points, tie-break values and averages are compared
 * exactly, never as floating point. Numerator and denominator are safe integers, the fraction
 * is kept reduced with a positive denominator.
 */
export interface Rational {
  readonly n: number;
  readonly d: number;
}

const gcd = (a: number, b: number): number => {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
};

function checked(x: number): number {
  if (!Number.isSafeInteger(x)) throw new RangeError('a tournament number left the exact integer range');
  return x;
}

export function rat(n: number, d = 1): Rational {
  if (d === 0) throw new RangeError('division by zero');
  checked(n);
  checked(d);
  const g = gcd(n, d) || 1;
  const s = d < 0 ? -1 : 1;
  // `+ 0` turns -0 into 0, so equal values print and compare alike.
  return { n: (s * n) / g + 0, d: (s * d) / g };
}

export const ZERO: Rational = rat(0);
export const ONE: Rational = rat(1);

export const add = (a: Rational, b: Rational): Rational => rat(checked(a.n * b.d + b.n * a.d), checked(a.d * b.d));
export const sub = (a: Rational, b: Rational): Rational => rat(checked(a.n * b.d - b.n * a.d), checked(a.d * b.d));
export const mul = (a: Rational, b: Rational): Rational => rat(checked(a.n * b.n), checked(a.d * b.d));
export const div = (a: Rational, b: Rational): Rational => rat(checked(a.n * b.d), checked(a.d * b.n));
export const sum = (xs: Iterable<Rational>): Rational => {
  let s = ZERO;
  for (const x of xs) s = add(s, x);
  return s;
};

/** Negative, zero or positive as a is less than, equal to or greater than b. */
export const cmp = (a: Rational, b: Rational): number => Math.sign(a.n * b.d - b.n * a.d);
export const eq = (a: Rational, b: Rational): boolean => a.n === b.n && a.d === b.d;
export const min = (a: Rational, b: Rational): Rational => (cmp(a, b) <= 0 ? a : b);

/** The machine form: `n/d` reduced, or `n` when d = 1. */
export const format = (r: Rational): string => (r.d === 1 ? String(r.n) : `${r.n}/${r.d}`);

const WRITTEN = /^(-?\d{1,15})(?:\/(\d{1,15}))?$/;

/** Reads `n`, `n/d` or a number with at most a few decimals (`0.5`); null when it is none of these. */
export function parse(text: string | number): Rational | null {
  if (typeof text === 'number') {
    if (!Number.isFinite(text)) return null;
    for (let d = 1; d <= 1_000_000; d *= 10) if (Number.isInteger(text * d)) return rat(Math.round(text * d), d);
    return null;
  }
  const m = WRITTEN.exec(text.trim());
  if (!m) return null;
  const d = m[2] === undefined ? 1 : Number(m[2]);
  return d === 0 ? null : rat(Number(m[1]), d);
}
