/**
 * Markup with every interpolated value escaped, as lit-html does but rendered to a string: the
 * page is a few views re-rendered whole when an event arrives, and a string keeps boards plain
 * functions that tests can read. Only `Markup` built here is inserted as-is.
 */
export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text (a player's name, anything from the API) made safe for HTML and SVG content and attributes. */
export const escapeText = (value: unknown): string => String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]);

function part(value: unknown): string {
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) return value.map(part).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeText(value);
}

/** `html\`<p>${name}</p>\``: values are escaped; Markup and lists of Markup are inserted as they are. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let text = strings[0];
  for (let i = 0; i < values.length; i++) text += part(values[i]) + strings[i + 1];
  return new Markup(text);
}

/** The same for SVG fragments (named apart so a reader sees which is which). */
export const svg = html;
