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
