/** Hostile REST requests: real and hostile ids, percent-encoded garbage, odd paths, methods, query strings and import bodies. */
import type { HostileKit } from './kit.js';
import { KINDS, ODD_CHARS, PROTO_KEYS, REFUSED_CHARS } from './poisons.js';
import { encodeSegment, type HostileRequest, ownObject, toJson } from './request.js';

/** A whole number in a query string gone wrong: negative, not a number, out of range, padded. */
const BAD_WHOLE = ['-1', '-5000', 'abc', '1e3', '0x10', '%00', '', '1.5', '99999999999999999999', '2147483648', ' 5'];

export function rest(kit: HostileKit): HostileRequest {
  const n = kit.int(100);
  if (n < 15) return tournamentRead(kit);
  if (n < 45) return gameRead(kit);
  if (n < 60) return oddMethod(kit);
  if (n < 85) return importGame(kit);
  return oddPath(kit);
}

/** A garbage string, percent-encoded, at most `max` characters. */
const garbage = (kit: HostileKit, max: number) => encodeSegment(kit.string()).slice(0, max);
const gameId = (kit: HostileKit) => kit.game().id;
const tournamentId = (kit: HostileKit) => kit.pick(kit.tournamentList()).id;

/** A path segment: one of the real ids `real` gives, or percent-encoded garbage. */
function idSegment(kit: HostileKit, real: (kit: HostileKit) => string = gameId): string {
  switch (kit.int(5)) {
    case 0:
      return real(kit);
    case 1:
      return kit.pick([
        '%00',
        '%E2%80%AE',
        '%ED%A0%80',
        '%C0%AF',
        '%zz',
        '%',
        '%%',
        '%E2%80',
        '%2e%2e',
        '..%2f..%2fetc%2fpasswd',
        '%0d%0aSet-Cookie:x',
        '%FF',
        '%u0000',
        'AAAAAAAAAAAA',
        't-AAAAAAAAAAAA',
      ]);
    case 2:
      return garbage(kit, 3000);
    case 3:
      return `${real(kit)}${kit.pick(['%00', '%20', '.json', '%2F', ';x=1', '%ED%A0%80'])}`;
    default:
      return encodeSegment(kit.insert(real(kit), kit.pick([...REFUSED_CHARS, ...ODD_CHARS])));
  }
}

/** No authorization, or a token real or broken. */
function auth(kit: HostileKit): Record<string, string> {
  return kit.chance(0.4)
    ? {
        authorization: kit.pick([
          `Bearer ${kit.pick(kit.game().tokens)}`,
          `Bearer ${kit.pick(kit.tournamentTokens())}`,
          'Bearer',
          'Bearer  x y',
          'Basic Zm9vOmJhcg==',
          `Bearer ${'é'.repeat(20)}`,
          'bearer arb_x',
        ]),
      }
    : {};
}

/** Mostly none; else a query string of garbage. */
const garbageQuery = (kit: HostileKit) => (kit.chance(0.1) ? `?${garbage(kit, 100)}` : '');

/** A tournament's reads; standings as JSON or CSV. */
function tournamentRead(kit: HostileKit): HostileRequest {
  const whole = () => kit.pick([...BAD_WHOLE, '0', '1', '2', garbage(kit, 200)]);
  const sub = kit.pick(['', '', '/standings', '/standings', '/games', '/events', '/events', '/bundle', '/x', '/standings/', '/']);
  const format = () => kit.pick(['csv', 'json', 'CSV', 'xml', '', '%00', 'csv&format=json', garbage(kit, 50)]);
  const query =
    sub === '/standings' && kit.chance(0.7)
      ? `?${kit.pick([`afterRound=${whole()}`, `format=${format()}`, `afterRound=${whole()}&format=${format()}`, 'afterRound=1&afterRound=0'])}`
      : sub === '/events' && kit.chance(0.7)
        ? `?afterSeq=${kit.pick([whole(), '5&afterSeq=6'])}`
        : garbageQuery(kit);
  const accept: Record<string, string> = kit.chance(0.3) ? { accept: kit.pick(['text/csv', 'text/csv;q=0.9, application/json', '*/*', 'application/xml', 'text/*', 'text/csv;q=x']) } : {};
  return {
    family: `rest:GET /api/tournaments/:id${sub}`,
    method: kit.chance(0.9) ? 'GET' : 'HEAD',
    path: `/api/tournaments/${idSegment(kit, tournamentId)}${sub}${query}`,
    headers: { ...auth(kit), ...accept },
  };
}

/** A game's reads. */
function gameRead(kit: HostileKit): HostileRequest {
  const sub = kit.pick(['', '', '/events', '/events', '/bundle', '/record', '/x', '/events/', '/bundle/x', '/']);
  const query = sub === '/events' && kit.chance(0.7) ? `?afterSeq=${kit.pick([...BAD_WHOLE, '5&afterSeq=6', garbage(kit, 200)])}` : garbageQuery(kit);
  return { family: `rest:GET /api/games/:id${sub}`, method: kit.chance(0.9) ? 'GET' : 'HEAD', path: `/api/games/${idSegment(kit)}${sub}${query}`, headers: auth(kit) };
}

/** A method the path does not take, with a garbage body. */
function oddMethod(kit: HostileKit): HostileRequest {
  const path = kit.pick([
    `/api/games/${idSegment(kit)}`,
    `/api/games/${kit.game().id}/events`,
    '/api/games/import',
    '/api/games',
    '/healthz',
    '/metrics',
    `/api/games/${idSegment(kit)}/bundle`,
    '/api/tournaments',
    `/api/tournaments/${tournamentId(kit)}`,
    `/api/tournaments/${idSegment(kit, tournamentId)}/${kit.pick(['standings', 'games', 'events', 'bundle', 'participants', 'rounds/1/pair', 'finish'])}`,
    `/api/webhooks/${kit.pick(kit.webhooks).id}`,
  ]);
  const method = kit.pick(['PUT', 'PATCH', 'DELETE', 'OPTIONS', 'POST', 'PROPFIND']);
  return { family: `rest:${method} odd`, method, path, headers: { 'content-type': 'application/json', ...auth(kit) }, body: method === 'OPTIONS' ? undefined : toJson(kit.json()) };
}

/** An import no engine takes: an odd kind, a bad record, a body of another type or none. */
function importGame(kit: HostileKit): HostileRequest {
  // Not the test-only duel engine: its importRecord trusts its input (the real engines check theirs).
  const kind = kit.chance(0.2) ? garbage(kit, 200) : kit.pick([...KINDS, '']);
  const query = kit.pick([`?kind=${kind}`, `?kind=${kind}`, `?kind=${kind}&kind=cerke`, '', `?kind[a]=b`]);
  const record = kit.badRecord();
  const [contentType, body] = kit.pick<[string, string | Uint8Array]>([
    ['application/json', toJson(kit.json())],
    ['application/json', toJson(kit.chance(0.5) ? kit.deep() : ownObject([['format', kit.deep()]]))],
    ['application/json', toJson(ownObject([[kit.pick(PROTO_KEYS), ownObject([['format', 'arbiter-chicken-foot/1']])]]))],
    ['text/plain', record.text.replace(/\p{Cs}/gu, '\u0000')],
    ['text/plain', kit.string()],
    ['application/octet-stream', new Uint8Array(Array.from({ length: 64 }, () => kit.int(256)))],
    ['application/json', '{"format": "arbiter-chicken-foot/1", '],
    ['text/plain; charset=utf-16', 'abc'],
    ['application/x-www-form-urlencoded', 'kind=cerke&record=x'],
    ['', ''],
    ['text/plain', ''],
  ]);
  // A text body carries no lone surrogate (it would arrive as U+FFFD): poisons in text use NUL and controls.
  return { family: 'rest:POST /api/games/import', method: 'POST', path: `/api/games/import${query}`, headers: contentType ? { 'content-type': contentType } : {}, body };
}

/** An odd path: bare, doubled, percent-encoded, traversing, too long, or one level too deep. */
function oddPath(kit: HostileKit): HostileRequest {
  const path = kit.pick([
    '/',
    '/api',
    '/api/',
    '/api/games',
    '/api/games/',
    '//api//games',
    '/api/games/%',
    '/api/games/%zz/events',
    '/api/games/%ED%A0%80/record',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/api/games/x/y/z/w',
    '/api/tournaments',
    '/api/tournaments/',
    '/api/webhooks',
    `/api/tournaments/${kit.tournaments.running.id}/standings/x`,
    '/api/tournaments/%ED%A0%80/bundle',
    `/api/tournaments/t-${'a'.repeat(kit.pick([100, 4000]))}/events`,
    '/graphql/x',
    '/healthz/%00',
    '/metrics?x=%00',
    `/api/games/${'a'.repeat(kit.pick([100, 4000, 12_000]))}`,
    `/${garbage(kit, 500)}`,
    `/api/games/${kit.game().id}/events?afterSeq=${'9'.repeat(400)}`,
  ]);
  return { family: 'rest:odd path', method: kit.pick(['GET', 'GET', 'POST', 'HEAD']), path, headers: auth(kit) };
}
