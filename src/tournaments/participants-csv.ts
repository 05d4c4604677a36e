import type { BulkRow, RowRefusal } from '../referee/index.js';

/**
 * A bulk registration as CSV (RFC 4180: commas, fields quoted with "", CRLF or LF lines): a header
 * naming the columns (`name` required; `rating`, `externalId`, `requestedByes`, `player` optional,
 * in any order and case), then one participant a line. `requestedByes` lists rounds separated by
 * spaces or semicolons. Row 1 is the first line after the header; blank lines are skipped.
 */

const COLUMNS = ['name', 'rating', 'externalid', 'requestedbyes', 'player'] as const;
type Column = (typeof COLUMNS)[number];

/** The rows, or every row (and header) refused as it was read. */
export function participantsFromCsv(text: string): { rows: BulkRow[]; refusals: RowRefusal[] } {
  const lines = records(text.replace(/^\uFEFF/, '')).filter((fields) => fields.some((f) => f.trim() !== ''));
  const refused = (row: number, message: string): RowRefusal => ({ row, code: 'INVALID_INPUT', message });
  if (lines.length < 2) return { rows: [], refusals: [refused(0, 'the CSV needs a header line (name,rating,externalId,requestedByes,player) and at least one participant')] };
  const header = lines[0].map((h) => h.trim().toLowerCase());
  const unknown = header.find((h) => !COLUMNS.includes(h as Column));
  if (unknown !== undefined || !header.includes('name') || new Set(header).size !== header.length)
    return {
      rows: [],
      refusals: [refused(0, `the header names each column once, from: name (required), rating, externalId, requestedByes, player${unknown !== undefined ? `; "${unknown}" is none of them` : ''}`)],
    };
  const rows: BulkRow[] = [];
  const refusals: RowRefusal[] = [];
  for (const [i, fields] of lines.slice(1).entries()) {
    const row = i + 1;
    if (fields.length !== header.length) {
      refusals.push(refused(row, `${fields.length} fields where the header has ${header.length}`));
      continue;
    }
    const cell = (c: Column) => {
      const at = header.indexOf(c);
      const v = at < 0 ? '' : fields[at].trim();
      return v === '' ? null : v;
    };
    const rating = cell('rating');
    const byes = cell('requestedbyes')?.split(/[\s;]+/) ?? [];
    const problem =
      rating !== null && !/^[0-9]{1,5}$/.test(rating)
        ? `rating "${rating}" is not a whole number`
        : byes.some((b) => !/^[0-9]{1,3}$/.test(b))
          ? 'requestedByes lists round numbers, separated by spaces or semicolons'
          : null;
    if (problem) refusals.push(refused(row, problem));
    else rows.push({ name: cell('name'), rating: rating === null ? null : Number(rating), externalId: cell('externalid'), requestedByes: byes.map(Number), player: cell('player') });
  }
  return { rows, refusals };
}

/** RFC 4180 records: fields split on commas outside quotes, "" inside quotes is one quote. */
function records(text: string): string[][] {
  const out: string[][] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      fields.push(field);
      out.push(fields);
      fields = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || fields.length > 0) out.push([...fields, field]);
  return out;
}
