/** How the hostile generator's requests are sent, and what each answer shows. */
import type { HostileRequest } from './request.js';

/** What one response showed: its status class, and anything wrong with it. */
export interface Verdict {
  status: number;
  /** A problem: a 5xx, an INTERNAL code, an error without a code, a REST error not in the JSON shape. */
  problem: string | null;
  /** An answer that changed state: a union's (GameCreated, SeatJoined, MoveAccepted), or a field the request lists in `changes` answered. */
  accepted: string[];
  /** GraphQL error codes and Rejection codes seen, for the figures. */
  codes: string[];
}

const INTERNAL = new Set(['INTERNAL', 'INTERNAL_SERVER_ERROR']);

export function judge(req: HostileRequest, status: number, contentType: string, text: string): Verdict {
  const codes: string[] = [];
  const accepted: string[] = [];
  let problem: string | null = status >= 500 ? `status ${status}` : null;
  let body: any = null;
  if (contentType.includes('json') && text) {
    try {
      // NDJSON (a game's events): every line is JSON.
      body = contentType.includes('ndjson')
        ? text
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line))
        : JSON.parse(text);
    } catch {
      problem ??= 'a JSON content type with a body that is not JSON';
    }
  }
  if (req.path.startsWith('/graphql') && body && typeof body === 'object' && !Array.isArray(body) && !body.error) {
    for (const e of body.errors ?? []) {
      const code = e?.extensions?.code;
      if (typeof code !== 'string') problem ??= `a GraphQL error without extensions.code: ${e?.message}`;
      else {
        codes.push(code);
        if (INTERNAL.has(code)) problem ??= `GraphQL ${code}: ${e.message}`;
      }
    }
    const walk = (v: unknown) => {
      if (!v || typeof v !== 'object') return;
      const o = v as Record<string, unknown>;
      if (o.__typename === 'Rejection') codes.push(String(o.code));
      if (o.__typename === 'GameCreated' || o.__typename === 'SeatJoined' || o.__typename === 'MoveAccepted') accepted.push(o.__typename);
      for (const x of Object.values(o)) walk(x);
    };
    walk(body.data);
    for (const [key, field] of Object.entries(req.changes ?? {})) if (body.data?.[key] !== undefined && body.data[key] !== null && body.data[key].__typename !== 'Rejection') accepted.push(field);
  } else if (status === 431 && !text) {
    // Node's HTTP parser refuses headers (here: a URL) over 16 KB before the application sees them.
    codes.push('HTTP_431');
  } else if (status >= 400 && req.method !== 'HEAD') {
    // REST (and limits in front of GraphQL): { error: { code, message } }.
    const ok = body && typeof body.error?.code === 'string' && typeof body.error?.message === 'string';
    if (!ok) problem ??= `a ${status} without the JSON error shape: ${text.slice(0, 120)}`;
    else {
      codes.push(body.error.code);
      if (INTERNAL.has(body.error.code)) problem ??= `code ${body.error.code}`;
    }
  }
  return { status, problem, accepted, codes };
}

export interface Figures {
  sent: number;
  /** Requests the client could not send (a bug in the generator, not in the service). */
  unsent: number;
  byClass: Record<string, number>;
  byFamily: Record<string, number>;
  codes: Record<string, number>;
  accepted: number;
  problems: { family: string; method: string; path: string; body: string; problem: string }[];
}

/** Sends the requests with `concurrency` in flight; no timing is asserted anywhere. */
export async function run(baseUrl: string, requests: Iterable<HostileRequest>, concurrency: number): Promise<Figures> {
  const figures: Figures = { sent: 0, unsent: 0, byClass: {}, byFamily: {}, codes: {}, accepted: 0, problems: [] };
  const it = requests[Symbol.iterator]();
  const worker = async () => {
    for (let next = it.next(); !next.done; next = it.next()) {
      const req = next.value;
      let res: Response;
      try {
        res = await fetch(baseUrl + req.path, { method: req.method, headers: req.headers, body: req.body as RequestInit['body'], redirect: 'manual', signal: AbortSignal.timeout(300_000) });
      } catch (err) {
        figures.unsent++;
        figures.problems.push({ family: req.family, method: req.method, path: req.path.slice(0, 200), body: describeBody(req.body), problem: `not sent: ${(err as Error).message}` });
        continue;
      }
      const text = await res.text();
      figures.sent++;
      const v = judge(req, res.status, res.headers.get('content-type') ?? '', text);
      const cls = `${Math.floor(v.status / 100)}xx`;
      figures.byClass[cls] = (figures.byClass[cls] ?? 0) + 1;
      figures.byFamily[req.family] = (figures.byFamily[req.family] ?? 0) + 1;
      for (const c of v.codes) figures.codes[c] = (figures.codes[c] ?? 0) + 1;
      figures.accepted += v.accepted.length;
      if (v.problem || v.accepted.length > 0) {
        figures.problems.push({ family: req.family, method: req.method, path: req.path.slice(0, 200), body: describeBody(req.body), problem: v.problem ?? `accepted: ${v.accepted.join(', ')}` });
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return figures;
}

function describeBody(body: string | Uint8Array | undefined): string {
  if (body === undefined) return '';
  const text = typeof body === 'string' ? body : `<${body.length} bytes>`;
  return text.length > 4000 ? `${text.slice(0, 4000)}… (${text.length} chars)` : text;
}
