/** The `games` routes: a game, its events, bundle and record, the seat commands, imports. */
import { commonRefusals, json, type Operation, type Paths, ref, type Schema } from './builders.js';
import { actionSchema, freeObject } from './game-json.js';

/** The seat token is optional everywhere: without it the caller is a spectator. */
const optionalSeat: Record<string, string[]>[] = [{ seatToken: [] }, {}];

/** A seat command's body: its own fields, and the move id and expected version every move has. */
const seatCommandBody = (fields: Record<string, Schema>, required: string[]): Schema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties: {
    ...fields,
    moveId: {
      type: 'string',
      pattern: '^[A-Za-z0-9_.:-]{1,128}$',
      description: 'Client move id: a retry with the same id and body answers the original result. Omitted: a fresh one (no retry protection)',
    },
    expectedVersion: { type: ['integer', 'null'], minimum: 0, description: 'The game version this was decided at; a newer game refuses it with `VERSION_CONFLICT` (409)' },
  },
});

/** A REST seat command: the same command, refusal codes and rate budget (a move's) as its GraphQL mutation. */
function seatCommand(operationId: string, mutation: string, summary: string, body: Schema | null): { post: Operation } {
  return {
    post: {
      operationId,
      summary,
      description:
        `As GraphQL \`${mutation}\`: counted against the seat's moves' budget, not its reads'. Refusals answer \`{ "error": { "code", "message", "currentVersion" } }\` with the status of their code ` +
        '(docs/integrating.md lists them).',
      tags: ['games'],
      parameters: [ref('parameters', 'GameId')],
      ...(body ? { requestBody: { description: 'The command, as JSON', required: (body.required ?? []).length > 0, content: json(body) } } : {}),
      security: [{ seatToken: [] }, { key: [] }],
      responses: {
        '200': { description: 'Accepted: the new version and the game as the seat now sees it', content: json(ref('schemas', 'MoveAccepted')) },
        '400': ref('responses', 'InvalidInput'),
        '401': ref('responses', 'Unauthorized'),
        '403': { description: '`SCOPE_MISSING`: the key lacks the scope `play`', content: json(ref('schemas', 'Error')) },
        '404': ref('responses', 'NotFound'),
        '409': { description: '`VERSION_CONFLICT` (the game moved since `expectedVersion`) or `MOVE_ID_REUSED`', content: json(ref('schemas', 'Error')) },
        '413': ref('responses', 'PayloadTooLarge'),
        '422': { description: '`NOT_YOUR_TURN`, `ILLEGAL_MOVE`, `GAME_OVER`, `OUT_OF_TIME`, ... : the rules refuse it now', content: json(ref('schemas', 'Error')) },
        ...commonRefusals,
      },
    },
  };
}

/** The game routes, for a service that plays `kinds`. */
export function gamePaths(kinds: readonly string[]): Paths {
  return {
    '/api/games/{id}': {
      get: {
        operationId: 'getGame',
        summary: 'A game as the caller may see it',
        description: "The ETag names the game version and the caller's seat: `If-None-Match` with it answers 304 until the game moves.",
        tags: ['games'],
        parameters: [
          ref('parameters', 'GameId'),
          {
            name: 'atLeastVersion',
            in: 'query',
            description: 'Read-your-writes: answer the game at this version or later (a version a move was acknowledged at, on any instance)',
            schema: { type: 'integer', minimum: 0, maximum: 999_999_999_999_999 },
          },
          ref('parameters', 'IfNoneMatch'),
        ],
        security: optionalSeat,
        responses: {
          '200': {
            description: 'The game',
            headers: { ETag: ref('headers', 'ETag'), 'Cache-Control': { description: '`no-cache`: revalidate with If-None-Match', schema: { type: 'string', const: 'no-cache' } } },
            content: json(ref('schemas', 'GameDetail')),
          },
          '304': { description: 'Not modified: the game is still at the version (and seat) the If-None-Match ETag names', headers: { ETag: ref('headers', 'ETag') } },
          '400': ref('responses', 'InvalidInput'),
          '401': ref('responses', 'Unauthorized'),
          '404': ref('responses', 'NotFound'),
          '422': ref('responses', 'Refused'),
          ...commonRefusals,
        },
      },
    },
    '/api/games/{id}/events': {
      get: {
        operationId: 'getGameEvents',
        summary: 'The game events as the caller may see them, one JSON object a line',
        description:
          'Newline-delimited JSON. With `follow=1` the answer stays open and streams each new event as it is stored, until the game ends (its last line is `SeedRevealed`) or the client goes away; ' +
          'an empty line every 15 s keeps idle proxies from closing it, and a refusal after the status was sent is the last line, `{ "error": { "code", "message" } }`.',
        tags: ['games'],
        parameters: [
          ref('parameters', 'GameId'),
          { name: 'afterSeq', in: 'query', description: 'Only the events after this sequence number (0, the default: all)', schema: { type: 'integer', minimum: 0, maximum: 999_999_999_999_999 } },
          {
            name: 'follow',
            in: 'query',
            description: '`1` (or `true`): keep the answer open and stream new events; `0` (or `false`, the default): the events so far',
            schema: { type: 'string', enum: ['0', '1', 'true', 'false'] },
          },
        ],
        security: optionalSeat,
        responses: {
          '200': { description: 'The events, one a line', content: { 'application/x-ndjson': { schema: ref('schemas', 'StoredEvent') } } },
          '400': ref('responses', 'InvalidInput'),
          '401': ref('responses', 'Unauthorized'),
          '404': ref('responses', 'NotFound'),
          '422': ref('responses', 'Refused'),
          ...commonRefusals,
        },
      },
    },
    '/api/games/{id}/bundle': {
      get: {
        operationId: 'getGameBundle',
        summary: 'The whole game as a self-contained, verifiable JSON file (`npm run verify -- file.json`)',
        description: 'A game with hidden information (Chicken Foot) is exported once it has ended. Counts 10 requests against the rate limit.',
        tags: ['games'],
        parameters: [ref('parameters', 'GameId')],
        security: [],
        responses: {
          '200': {
            description: 'The bundle',
            headers: { 'Content-Disposition': { description: '`attachment; filename="arbiter-<id>.bundle.json"`', schema: { type: 'string' } } },
            content: json(ref('schemas', 'Bundle')),
          },
          '404': ref('responses', 'NotFound'),
          '409': ref('responses', 'NotFinished'),
          '422': ref('responses', 'Refused'),
          ...commonRefusals,
        },
      },
    },
    '/api/games/{id}/record': {
      get: {
        operationId: 'getGameRecord',
        summary: 'The game in its community record format: backgammon `.mat`, Cerke cerke_online text, Chicken Foot JSON',
        description: 'Counts 10 requests against the rate limit.',
        tags: ['games'],
        parameters: [ref('parameters', 'GameId')],
        security: [],
        responses: {
          '200': {
            description: 'The record',
            content: {
              'text/plain': { schema: { type: 'string', description: 'Backgammon (.mat) and Cerke (cerke_online) records' } },
              'application/json': {
                schema: freeObject(
                  'The Chicken Foot record (docs/rules/chicken-foot.md §16): `format` (`arbiter-chicken-foot/1`), `ruleset`, `seats` (names), `rounds` (each with its `shuffle` and `actions`), ...',
                ),
              },
            },
          },
          '404': ref('responses', 'NotFound'),
          '409': ref('responses', 'NotFinished'),
          '422': ref('responses', 'Refused'),
          ...commonRefusals,
        },
      },
    },
    '/api/games/{id}/actions': seatCommand(
      'submitAction',
      'submitAction',
      "Plays an action for the caller's seat",
      seatCommandBody({ action: { ...actionSchema, description: `As \`legalActions\` lists it (e.g. \`{"type": "roll"}\`). ${actionSchema.description}` } }, ['action']),
    ),
    '/api/games/{id}/resign': seatCommand('resignGame', 'resignGame', "Concedes the whole game (match, all rounds) for the caller's seat", seatCommandBody({}, [])),
    '/api/games/{id}/abort': seatCommand('abortGame', 'abortGame', 'Ends a game nobody moved in yet, with no result (`ABORT_TOO_LATE` once a seat moved)', null),
    '/api/games/import': {
      post: {
        operationId: 'importGame',
        summary: 'Imports a record as a new game, replayed and checked move by move',
        description: `The body is at most MAX_BODY_BYTES (1 MiB by default). Counts 10 requests against the rate limit and one game against the address's CREATE_QUOTA_PER_HOUR.`,
        tags: ['games'],
        parameters: [
          {
            name: 'kind',
            in: 'query',
            required: true,
            description: 'Which game the record is (the GraphQL `gameKinds` query lists them)',
            schema: { type: 'string', examples: [...kinds] },
          },
        ],
        requestBody: {
          description: 'The record in the game own format, as text or JSON (`curl --data-binary @match.mat` sends it as a form body, taken as text too)',
          required: true,
          content: {
            'text/plain': { schema: { type: 'string' } },
            'application/octet-stream': { schema: { type: 'string', format: 'binary', description: 'UTF-8 text' } },
            'application/json': {
              schema: freeObject(
                'The Chicken Foot record (docs/rules/chicken-foot.md §16): `format` (`arbiter-chicken-foot/1`), `ruleset`, `seats` (names), `rounds` (each with its `shuffle` and `actions`), ...',
              ),
            },
            'application/x-www-form-urlencoded': { schema: { type: 'string', description: 'The record as is (not decoded as a form)' } },
          },
        },
        security: [],
        responses: {
          '201': { description: 'The imported game and a token per seat', content: json(ref('schemas', 'ImportedGame')) },
          '400': ref('responses', 'InvalidInput'),
          '413': ref('responses', 'PayloadTooLarge'),
          '422': ref('responses', 'Refused'),
          ...commonRefusals,
        },
      },
    },
  };
}
