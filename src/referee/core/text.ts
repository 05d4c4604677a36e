/**
 * What text from a client may not contain: control characters (C0, DEL, C1), lone surrogates
 * (not well-formed Unicode: PostgreSQL refuses them in text and jsonb), line and paragraph
 * separators, and the bidirectional overrides and isolates that make a name read backwards.
 */
const UNCLEAN_TEXT = /[\p{Cc}\p{Cs}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

/** Whether `text` is well-formed Unicode without control or bidirectional-override characters. */
export function isCleanText(text: string): boolean {
  return !UNCLEAN_TEXT.test(text);
}

const DURATION_UNITS: readonly [string, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/**
 * A duration as people read it in a message: "11 days 2 hours", "1 minute 30.5 seconds", "950 ms".
 * Exact (no unit is rounded away), so a message says precisely what the number said.
 */
export function durationWords(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const words: string[] = [];
  let rest = ms;
  for (const [unit, size] of DURATION_UNITS) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) words.push(`${n} ${unit}${n === 1 ? '' : 's'}`);
  }
  if (rest > 0) words.push(`${rest / 1000} second${rest === 1000 ? '' : 's'}`);
  return words.join(' ');
}
