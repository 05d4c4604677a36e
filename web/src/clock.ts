/**
 * Time left as a player reads it: a running clock's minutes and seconds ("4:07", "1:02:30"),
 * a correspondence deadline's days and hours ("1 d 4 h"). The page only counts down what the
 * service said; it never decides that a time ran out (the service records that).
 */
export function clockText(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s >= 86_400) return `${Math.floor(s / 86_400)} d ${Math.floor((s % 86_400) / 3600)} h`;
  const mm = String(Math.floor((s % 3600) / 60)).padStart(s >= 3600 ? 2 : 1, '0');
  const ss = String(s % 60).padStart(2, '0');
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mm}:${ss}` : `${mm}:${ss}`;
}

/** "in 1 d 4 h", "in 35 min", "in 40 s" until a deadline; "now" once it passed. */
export function untilText(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s <= 0) return 'now';
  if (s >= 86_400) return `in ${Math.floor(s / 86_400)} d ${Math.floor((s % 86_400) / 3600)} h`;
  if (s >= 3600) return `in ${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return s >= 60 ? `in ${Math.floor(s / 60)} min` : `in ${s} s`;
}

/** A deadline in the viewer's own time zone, to the minute. */
export const localTime = (iso: string): string => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Low on time: under a tenth of the time control's full time, and never less than the last 20 s. */
export const isLow = (ms: number, fullMs: number): boolean => ms < Math.max(20_000, fullMs / 10);
