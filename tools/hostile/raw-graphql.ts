/** Hostile GraphQL over HTTP: malformed bodies, content types and methods, unknown fields, documents past the limits. */
import { gzipSync } from 'node:zlib';
import type { HostileKit } from './kit.js';
import { encodeSegment, type HostileRequest, ownObject, toJson } from './request.js';

let bombs: Uint8Array[] | null = null;
/** Gzip bodies that inflate to 2 and 8 MB (made once). */
const BOMBS = () => (bombs ??= [gzipSync(Buffer.alloc(2_000_000, 0x20)), gzipSync(Buffer.alloc(8_000_000, 0x20))]);

/** A POST to /graphql with the body, content type and headers as given. */
const postRaw = (family: string, body: string | Uint8Array, contentType: string, headers: Record<string, string> = {}): HostileRequest => ({
  family: `graphql-http:${family}`,
  method: 'POST',
  path: '/graphql',
  headers: { 'content-type': contentType, ...headers },
  body,
});

/** GraphQL over HTTP gone wrong: one request of the families below. */
export function rawGraphql(kit: HostileKit): HostileRequest {
  const id = kit.game().id;
  // Valid but for how it is sent: anyone may register on the open tournament, in a POST of JSON.
  const register = `mutation { registerParticipant(tournamentId: "${kit.tournaments.registering.id}", name: "Mallory") { __typename ... on ParticipantRegistered { participantId } ... on Rejection { code message } } }`;
  switch (kit.int(17)) {
    case 0:
      return postRaw(
        'malformed-json',
        kit.pick(['{', '{"query":', '{"query": "{ gameKinds }"', '[', 'null', '"x"', '{"query": "{ gameKinds }"}}', '\u0000', '{"query": "\\ud800"}', '{"query": undefined}', '{"a":1,"a":2}']),
        'application/json',
      );
    case 1:
      return postRaw(
        'content-type',
        toJson({ query: '{ gameKinds }' }),
        kit.pick([
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/xml',
          'application/json; charset=utf-16',
          'application/json; charset=latin1',
          'application/graphql',
          '',
          'application/json; charset=nope',
          '*/*',
        ]),
      );
    case 2:
      return postRaw(
        'bad-query-type',
        toJson(kit.pick([{ query: 5 }, { query: null }, { query: ['{ gameKinds }'] }, { query: { a: 1 } }, {}, { variables: {} }, { query: '' }, { query: kit.string() }])),
        'application/json',
      );
    case 3:
      return postRaw(
        'bad-variables',
        toJson({
          query: 'query($id: ID!) { game(id: $id) { id } }',
          variables: kit.pick(['{"id":"x"}', [id], 5, null, ownObject([['__proto__', { id }]]), ownObject([['id', ownObject([['__proto__', 1]])]])]),
        }),
        'application/json',
      );
    case 4:
      return postRaw('batch', toJson(kit.pick([[{ query: '{ gameKinds }' }, { query: '{ gameKinds }' }], [], [1, 2]])), 'application/json');
    case 5:
      return postRaw(
        'unknown-field',
        toJson({
          query: kit.pick([
            `{ game(id: "${id}") { nope } }`,
            `{ nope }`,
            `{ game(id: "${id}", bogus: 1) { id } }`,
            `mutation { createGame(input: { kind: "duel", bogus: 1 }) { __typename } }`,
            `mutation { createTournament(input: { kind: "backgammon", format: SWISS, rounds: 1, bogus: 1 }) { __typename ... on TournamentCreated { organizerToken } ... on Rejection { code message } } }`,
            `mutation { registerWebhook(input: { url: "${kit.webhookUrl}", events: [GAME_OVER], bogus: 1 }) { id } }`,
            `{ tournament(id: "${kit.tournaments.running.id}") { nope } }`,
            `{ __schema { types { name } } }`,
            `{ __type(name: "Game") { fields { name } } }`,
          ]),
        }),
        'application/json',
      );
    case 6: {
      const depth = kit.pick([12, 50, 500, 3000, 5000]);
      const inner = kit.chance(0.5) ? `${'a { '.repeat(depth)}b${' }'.repeat(depth)}` : `game(id: "${id}") { ${'... on Game { '.repeat(depth)}id${' }'.repeat(depth)} }`;
      return postRaw('deep-selection', toJson({ query: `{ ${inner} }` }), 'application/json');
    }
    case 7:
      return postRaw('many-aliases', toJson({ query: `{ ${Array.from({ length: kit.pick([1001, 5000]) }, (_, i) => `a${i}: gameKinds`).join(' ')} }` }), 'application/json');
    case 8: {
      const depth = kit.pick([100, 5000, 20_000]);
      return postRaw(
        'deep-literal',
        toJson({ query: `mutation { submitAction(gameId: "${id}", moveId: "m", action: ${'{a: '.repeat(depth)}1${'}'.repeat(depth)}) { __typename } }` }),
        'application/json',
      );
    }
    case 9:
      return postRaw('invalid-utf8', new Uint8Array([0x7b, 0x22, 0x71, 0x75, 0x65, 0x72, 0x79, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0x22, 0x7d]), 'application/json');
    case 10:
      return postRaw('gzip-bomb', kit.pick(BOMBS()), 'application/json', { 'content-encoding': 'gzip' });
    case 11:
      return postRaw('bad-encoding', new Uint8Array([1, 2, 3, 4]), 'application/json', { 'content-encoding': kit.pick(['gzip', 'deflate', 'br', 'compress', 'x-nope']) });
    case 12:
      // A mutation over GET is refused (it could be a link or an image): the open registration is one.
      return {
        family: 'graphql-http:get',
        method: 'GET',
        path: `/graphql?query=${encodeSegment(kit.pick([`mutation { resignGame(gameId: "${id}", moveId: "m") { __typename } }`, register, '{ gameKinds }', kit.string()]))}&variables=${encodeSegment(kit.pick(['{', '[]', '{"a":1}', kit.string()]))}`,
        headers: kit.chance(0.5) ? { 'apollo-require-preflight': 'true' } : {},
        changes: { registerParticipant: 'registerParticipant' },
      };
    case 15:
      // What a form on another site can send without a preflight: GraphQL takes none of it.
      return {
        ...postRaw(
          'form-post',
          kit.pick([toJson({ query: register }), `query=${encodeURIComponent(register)}`, register]),
          kit.pick(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']),
        ),
        changes: { registerParticipant: 'registerParticipant' },
      };
    case 13:
      return { family: 'graphql-http:method', method: kit.pick(['PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']), path: '/graphql', headers: { 'content-type': 'application/json' }, body: undefined };
    case 14:
      return postRaw('huge-string', toJson({ query: `{ game(id: "${'x'.repeat(kit.pick([100_000, 900_000]))}") { id } }` }), 'application/json');
    default:
      return postRaw('bom-and-junk', `\ufeff${toJson({ query: '{ gameKinds }' })}${kit.pick(['', '\u0000', ' trailing'])}`, 'application/json');
  }
}
