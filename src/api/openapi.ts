/**
 * The OpenAPI 3.1 description of the REST endpoints (src/api/games.controller.ts) and the
 * operations endpoints (src/ops/ops.controller.ts), served at GET /api/openapi.json. Written by
 * hand as a typed object: the controllers take raw query strings and bodies (several content
 * types for an import, NDJSON streams, ETag/304), which decorators would describe no better.
 * test/e2e/openapi.spec.ts checks that every route the app registers is here and vice versa.
 */

/** JSON Schema 2020-12, as OpenAPI 3.1 uses it (the subset written here). */
export interface Schema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null' | ('object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'null')[];
  $ref?: string;
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  enum?: (string | number | boolean | null)[];
  const?: string | number | boolean;
  oneOf?: Schema[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  examples?: unknown[];
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  description: string;
  required?: boolean;
  schema: Schema;
}

export interface Header {
  description: string;
  schema: Schema;
}

export interface MediaType {
  schema: Schema;
  example?: unknown;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, Header | { $ref: string }>;
  content?: Record<string, MediaType>;
}

export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { description: string; required: boolean; content: Record<string, MediaType> };
  responses: Record<string, ResponseObject | { $ref: string }>;
  /** `[]` means no authentication; `[{}]` alongside a scheme means it is optional. */
  security?: Record<string, string[]>[];
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  jsonSchemaDialect?: string;
  info: { title: string; version: string; description: string; license: { name: string; identifier: string } };
  servers?: { url: string; description?: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Partial<Record<'get' | 'post', Operation>>>;
  components: {
    schemas: Record<string, Schema>;
    parameters: Record<string, Parameter>;
    headers: Record<string, Header>;
    responses: Record<string, ResponseObject>;
    securitySchemes: Record<string, { type: 'http'; scheme: 'bearer'; description: string }>;
  };
}

const ref = (kind: 'schemas' | 'parameters' | 'headers' | 'responses', name: string) => ({ $ref: `#/components/${kind}/${name}` });
const json = (schema: Schema): Record<string, MediaType> => ({ 'application/json': { schema } });

/** The seat token is optional everywhere: without it the caller is a spectator. */
const optionalSeat: Record<string, string[]>[] = [{ seatToken: [] }, {}];

/** Refusals every REST request may meet before or besides its own. */
const commonRefusals = {
  '429': ref('responses', 'RateLimited'),
  '503': ref('responses', 'Unavailable'),
};

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

/** A challenge as the /api/challenges routes answer it (GraphQL's Challenge, as JSON). */
const challengePlayer: Schema = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string' }, name: { type: ['string', 'null'] } } };
const nullablePlayer: Schema = { oneOf: [challengePlayer, { type: 'null' }] };
const challengeSchema: Schema = {
  type: 'object',
  required: ['id', 'status', 'challenger', 'challenged', 'kind', 'ruleset', 'timeControl', 'seat', 'challengerMessage', 'createdAt', 'expiresAt', 'acceptedBy', 'gameId', 'challengerSeat', 'reason'],
  properties: {
    id: { type: 'string', pattern: '^ch-' },
    status: { type: 'string', enum: ['OPEN', 'ACCEPTED', 'DECLINED', 'CANCELLED', 'EXPIRED'], description: 'As of the request: an OPEN challenge past expiresAt is EXPIRED' },
    challenger: challengePlayer,
    challenged: { ...nullablePlayer, description: 'null: an open challenge, any other player may accept it' },
    kind: { type: 'string' },
    ruleset: { type: 'object', description: 'Every option resolved, as the game will have it' },
    timeControl: { type: ['object', 'null'], description: "The game's clock in seconds, as GraphQL's TimeControl; null: none" },
    seat: { type: 'string', enum: ['FIRST', 'SECOND', 'RANDOM'], description: "The challenger's seat choice" },
    challengerMessage: { type: ['string', 'null'] },
    createdAt: { type: 'string', format: 'date-time' },
    expiresAt: { type: 'string', format: 'date-time' },
    acceptedBy: nullablePlayer,
    gameId: { type: ['string', 'null'], description: 'The game the acceptance created (GET /api/games/{id})' },
    challengerSeat: { type: ['integer', 'null'], minimum: 0, maximum: 1 },
    reason: { type: ['string', 'null'], description: "A decline's reason" },
  },
};
const challengeId: Parameter = { name: 'id', in: 'path', required: true, description: 'The challenge id', schema: { type: 'string', pattern: '^ch-[A-Za-z0-9_-]{1,64}$' } };
const challengeRefusals = {
  '4XX': {
    description:
      '`INVALID_INPUT` (400); `UNAUTHORIZED` (401) without a player key (an app key is none), or with an unknown or revoked one; `SCOPE_MISSING` (403) without the scope play; `NOT_YOUR_CHALLENGE` (403); `NOT_FOUND` (404) for no such challenge or player; `CHALLENGE_CLOSED`, `CHALLENGE_EXPIRED` (409); `OWN_CHALLENGE` (422)',
    content: json(ref('schemas', 'Error')),
  },
  ...commonRefusals,
};
/** One of the answers to a challenge (accept, decline, cancel): the challenge as it left it. */
const challengeAnswer = (operationId: string, summary: string, body?: Schema) => ({
  post: {
    operationId,
    summary,
    tags: ['challenges'],
    parameters: [challengeId],
    ...(body ? { requestBody: { description: 'Optional', required: false, content: json(body) } } : {}),
    security: [{ playerKey: [] }],
    responses: { '200': { description: 'The challenge as the answer left it', content: json(challengeSchema) }, ...challengeRefusals },
  },
});

/** The tournament routes' path parameter and the refusals every one of them may answer (all are public reads). */
const tournamentId: Parameter = { name: 'id', in: 'path', required: true, description: 'The tournament id', schema: { type: 'string', pattern: '^t-[A-Za-z0-9_-]{1,64}$' } };
const tournamentRefusals = {
  '404': { description: '`NOT_FOUND`: no such tournament', content: json(ref('schemas', 'Error')) },
  '422': ref('responses', 'Refused'),
  ...commonRefusals,
};
const exactNumber: Schema = { type: 'string', pattern: '^-?[0-9]+(/[0-9]+)?$', description: 'An exact number: "3", "3/2"' };
const gameResult: Schema = {
  type: ['object', 'null'],
  description: 'The result the game counts with; null while it waits for one',
  required: ['source', 'kinds', 'gamePoints', 'ranking', 'recordGameId', 'reason'],
  properties: {
    source: { type: 'string', enum: ['GAME', 'ORGANIZER'] },
    kinds: { type: 'array', items: { type: 'string', enum: ['PLAYED', 'FORFEIT_WIN', 'FORFEIT_LOSS', 'DOUBLE_FORFEIT'] }, description: 'Per seat' },
    gamePoints: { type: 'array', items: { type: ['string', 'null'] }, description: 'Per seat, exact; null for a seat that did not play' },
    ranking: { type: 'array', items: { type: 'array', items: { type: 'integer' } }, description: 'Seats that played, best first, tied seats grouped' },
    recordGameId: { type: ['string', 'null'], description: 'The attached over-the-board record, imported as a game' },
    reason: { type: ['string', 'null'] },
  },
};
const standingRow: Schema = {
  type: 'object',
  required: ['rank', 'participantId', 'registrationNo', 'name', 'tp', 'tieBreaks'],
  properties: {
    rank: { type: 'integer', minimum: 1, description: 'Shared by participants still tied (knockout: the place)' },
    participantId: { type: 'string' },
    registrationNo: { type: 'integer', minimum: 1 },
    name: { type: 'string' },
    tp: { ...exactNumber, type: ['string', 'null'], description: 'Tournament points; null in a knockout' },
    tieBreaks: {
      type: 'array',
      items: { type: 'object', required: ['name', 'value'], properties: { name: { type: 'string', examples: ['BH-C1'] }, value: { type: ['string', 'null'] } } },
    },
  },
};

/** The document for this version of the service, which plays `kinds`. */
export function openApiDocument(version: string, kinds: readonly string[]): OpenApiDocument {
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'Arbiter REST API',
      version,
      description:
        'REST for plain clients and files, beside the GraphQL API at /graphql (which has everything). Errors are JSON: `{ "error": { "code", "message" } }` with a stable `code`. ' +
        'Send a seat token as `Authorization: Bearer <token>` to read and move as that seat; without one you are a spectator and see public information only.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'This service (the document is served by the instance it describes)' }],
    tags: [
      { name: 'games', description: 'A game, its events, its verifiable bundle and its record; imports' },
      { name: 'operations', description: 'Health, readiness and metrics for orchestrators and monitoring' },
      { name: 'challenges', description: 'Challenges between players (docs/players.md, "Challenges"): issue, list, accept, decline, cancel, with a player key' },
      { name: 'players', description: 'A player or app as its key says; players, apps and keys are created and managed over GraphQL' },
      { name: 'tournaments', description: 'A tournament, its standings (JSON or CSV), games, events and verifiable bundle; run it over GraphQL' },
    ],
    paths: {
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
                'application/json': { schema: { type: 'object', description: 'Chicken Foot records' } },
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
        seatCommandBody({ action: { description: 'The action in the engine JSON, as `legalActions` lists it (e.g. `{"type": "roll"}`)' } }, ['action']),
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
              'application/json': { schema: { type: 'object', description: 'A JSON record (Chicken Foot)' } },
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
      '/api/me/games': {
        get: {
          operationId: 'getMyGames',
          summary: 'The inbox: the games of the player whose key calls',
          description:
            'With `toAct=true`, the games waiting for the player, the most pressing deadline first (games without a clock last); otherwise the most recently moved first. ' +
            'A page at a time: pass `endCursor` as `after` while `hasNextPage`. GraphQL has the same as `myGames`, with each game whole.',
          tags: ['games'],
          parameters: [
            { name: 'toAct', in: 'query', description: '`true`: only the games waiting for the player; `false`: only the others; omitted: all', schema: { type: 'string', enum: ['true', 'false'] } },
            { name: 'status', in: 'query', description: 'Only games of this status', schema: { type: 'string', enum: ['WAITING', 'ACTIVE', 'FINISHED'] } },
            { name: 'kind', in: 'query', description: 'Only games of this kind', schema: { type: 'string', maxLength: 64 } },
            { name: 'first', in: 'query', description: 'At most this many games (1 to 100; 20 by default)', schema: { type: 'integer', minimum: 1, maximum: 100 } },
            { name: 'after', in: 'query', description: "A page's `endCursor`: the games after it", schema: { type: 'string' } },
          ],
          security: [{ playerKey: [] }],
          responses: {
            '200': {
              description: "A page of the player's games",
              content: json({
                type: 'object',
                required: ['games', 'endCursor', 'hasNextPage'],
                properties: {
                  games: {
                    type: 'array',
                    items: {
                      type: 'object',
                      required: ['gameId', 'seat', 'kind', 'status', 'toAct', 'deadline', 'updatedAt', 'version', 'cursor'],
                      properties: {
                        gameId: { type: 'string' },
                        seat: { type: 'integer', minimum: 0, description: "The player's seat" },
                        kind: { type: 'string' },
                        status: { type: 'string', enum: ['WAITING', 'ACTIVE', 'FINISHED'] },
                        toAct: { type: 'boolean', description: 'The game waits for this seat now' },
                        deadline: { type: ['string', 'null'], format: 'date-time', description: "When the seat's time runs out, if its clock runs" },
                        updatedAt: { type: 'string', format: 'date-time', description: "The time of the game's last event" },
                        version: { type: 'integer', minimum: 1 },
                        cursor: { type: 'string' },
                      },
                    },
                  },
                  endCursor: { type: ['string', 'null'] },
                  hasNextPage: { type: 'boolean' },
                },
              }),
            },
            '4XX': {
              description:
                '`INVALID_INPUT` (400) for a malformed parameter; `UNAUTHORIZED` (401) without a player key, or with an unknown or revoked one; `SCOPE_MISSING` (403) for a key without the scope read',
              content: json(ref('schemas', 'Error')),
            },
            ...commonRefusals,
          },
        },
      },
      '/api/me/stream': {
        get: {
          operationId: 'getMyStream',
          summary: 'The stream of the player whose key calls: the notices meant for the player, kept open',
          description:
            "Newline-delimited JSON, one notice a line: first those after the notice `after` (or the `Last-Event-ID` header) names, from the player's first without either, then each as it is stored, until the client goes away; an empty line every 15 s keeps idle proxies from closing it. " +
            'Types: `game.started`, `game.your_turn` (with `deadline` and `remainingMs` when a clock runs), `game.over` (with `reason` and `result`), `game.timed_out`, `game.pause_requested`, `game.time_given`, `game.opponent_on_vacation`, `challenge.received`, `challenge.accepted`, `challenge.declined`, `challenge.cancelled`. ' +
            'Reconnect with the last `id` received to get exactly the rest. GraphQL has the same as the `myEvents` subscription.',
          tags: ['games'],
          parameters: [
            { name: 'after', in: 'query', description: "A notice's `id`: the notices after it (omitted: from the player's first)", schema: { type: 'string', maxLength: 41 } },
            { name: 'Last-Event-ID', in: 'header', description: 'As `after`, when `after` is not given', schema: { type: 'string', maxLength: 41 } },
          ],
          security: [{ playerKey: [] }],
          responses: {
            '200': {
              description: 'The notices, one a line (empty lines keep the connection alive)',
              content: {
                'application/x-ndjson': {
                  schema: {
                    type: 'object',
                    required: ['id', 'type', 'createdAt', 'data'],
                    properties: {
                      id: { type: 'string', description: 'Opaque: resume after it' },
                      type: { type: 'string', description: 'What happened, dotted (`game.your_turn`, ...)' },
                      createdAt: { type: 'string', format: 'date-time', description: 'When it happened' },
                      data: { type: 'object', description: 'What the notice says: its game (`gameId`) and seat, and per type (docs/players.md)' },
                    },
                  },
                },
              },
            },
            '4XX': {
              description:
                '`INVALID_INPUT` (400) for an `after` (or `Last-Event-ID`) that is no notice id the stream gave; `UNAUTHORIZED` (401) without a player key (a seat token, a spectator), or with an unknown or revoked one; `SCOPE_MISSING` (403) for a key without the scope read',
              content: json(ref('schemas', 'Error')),
            },
            ...commonRefusals,
          },
        },
      },
      '/api/challenges': {
        get: {
          operationId: 'listChallenges',
          summary: "The caller's incoming or outgoing challenges, or the open ones, newest first",
          description: 'A page at a time: pass `endCursor` as `after` while `hasNextPage`. GraphQL has the same as `incomingChallenges`, `outgoingChallenges`, `openChallenges`.',
          tags: ['challenges'],
          parameters: [
            {
              name: 'list',
              in: 'query',
              description: 'Which challenges: to the caller (incoming, the default), from the caller (outgoing), or open to anyone (open)',
              schema: { type: 'string', enum: ['incoming', 'outgoing', 'open'] },
            },
            {
              name: 'status',
              in: 'query',
              description: 'Only challenges of this status (OPEN: not expired)',
              schema: { type: 'string', enum: ['OPEN', 'ACCEPTED', 'DECLINED', 'CANCELLED', 'EXPIRED'] },
            },
            { name: 'first', in: 'query', description: 'At most this many (1 to 100; 20 by default)', schema: { type: 'integer', minimum: 1, maximum: 100 } },
            { name: 'after', in: 'query', description: "A page's `endCursor`: the challenges after it", schema: { type: 'string' } },
          ],
          security: [{ playerKey: [] }],
          responses: {
            '200': {
              description: 'A page of challenges',
              content: json({
                type: 'object',
                required: ['challenges', 'endCursor', 'hasNextPage'],
                properties: {
                  challenges: {
                    type: 'array',
                    items: { ...challengeSchema, required: [...(challengeSchema.required ?? []), 'cursor'], properties: { ...challengeSchema.properties, cursor: { type: 'string' } } },
                  },
                  endCursor: { type: ['string', 'null'] },
                  hasNextPage: { type: 'boolean' },
                },
              }),
            },
            ...challengeRefusals,
          },
        },
        post: {
          operationId: 'issueChallenge',
          summary: 'Challenges a player (`to`), or anyone (an open challenge): the game offered is checked now, as createGame checks it',
          tags: ['challenges'],
          requestBody: {
            description: 'The game offered, to whom, for how long',
            required: true,
            content: json({
              type: 'object',
              required: ['kind'],
              properties: {
                to: { type: ['string', 'null'], description: 'The player challenged; omitted: an open challenge' },
                kind: { type: 'string', examples: [...kinds] },
                ruleset: { type: 'object', description: 'As createGame takes it; omitted: the defaults' },
                timeControl: { type: 'object', description: 'As createGame takes it, in seconds: {"kind": "correspondence", "perMoveSeconds": 86400} or {"kind": "fischer", "baseSeconds": 600}' },
                seat: { type: 'string', enum: ['FIRST', 'SECOND', 'RANDOM'], description: "The challenger's seat; omitted: RANDOM" },
                message: { type: 'string', maxLength: 500 },
                expiresInSeconds: { type: 'integer', minimum: 60, maximum: 2_592_000, description: 'Omitted: 7 days' },
              },
            }),
          },
          security: [{ playerKey: [] }],
          responses: { '201': { description: 'The challenge, OPEN', content: json(challengeSchema) }, ...challengeRefusals },
        },
      },
      '/api/challenges/{id}/accept': challengeAnswer(
        'acceptChallenge',
        'Accepts: creates the game, both seats bound to the two players; the answer names it (`gameId`). Of two acceptances of an open challenge one wins',
      ),
      '/api/challenges/{id}/decline': challengeAnswer('declineChallenge', 'Declines a challenge to the caller', { type: 'object', properties: { reason: { type: 'string', maxLength: 500 } } }),
      '/api/challenges/{id}/cancel': challengeAnswer('cancelChallenge', "Cancels the caller's own open challenge"),
      '/api/tournaments/{id}': {
        get: {
          operationId: 'getTournament',
          summary: 'A tournament as the GraphQL `tournament` query has it, with its standings and crosstable after the completed rounds',
          description: "Its finished games' results are recorded first. The seed is null until the tournament finishes.",
          tags: ['tournaments'],
          parameters: [tournamentId],
          security: [],
          responses: {
            '200': {
              description: 'The tournament',
              content: json({
                type: 'object',
                required: ['id', 'name', 'kind', 'format', 'status', 'version', 'headHash', 'seedCommitment', 'seed', 'config', 'participants', 'rounds', 'games', 'standings', 'crosstable'],
                properties: {
                  id: { type: 'string' },
                  name: { type: 'string' },
                  kind: { type: 'string', examples: ['backgammon'] },
                  format: { type: 'string', enum: ['ROUND_ROBIN', 'DOUBLE_ROUND_ROBIN', 'SWISS', 'KNOCKOUT', 'TABLES'] },
                  status: { type: 'string', enum: ['REGISTERING', 'RUNNING', 'FINISHED'] },
                  version: { type: 'integer' },
                  headHash: { type: 'string' },
                  seedCommitment: { type: 'string' },
                  seed: { type: ['string', 'null'], description: 'Revealed when the tournament finishes' },
                  config: { type: 'object', description: 'The configuration as recorded at creation' },
                  totalRounds: { type: ['integer', 'null'] },
                  completedRounds: { type: 'integer' },
                  participants: { type: 'array', items: { type: 'object', description: 'id, registrationNo, name, rating, entryRound, withdrawnAfterRound' } },
                  rounds: {
                    type: 'array',
                    items: { type: 'object', description: 'round, complete, boards (board, seats, manual, walkover, winner, complete, games), byes, rest, absent, requestedByes, warnings' },
                  },
                  games: { type: 'array', items: { type: 'string' }, description: 'Every scheduled game id' },
                  standings: { type: 'array', items: standingRow },
                  crosstable: { type: 'array', items: { type: 'object', description: 'participantId, registrationNo, name, cells (round, kind, opponents, seat, result, tp)' } },
                  createdAt: { type: 'string', format: 'date-time' },
                },
              }),
            },
            ...tournamentRefusals,
          },
        },
      },
      '/api/tournaments/{id}/standings': {
        get: {
          operationId: 'getTournamentStandings',
          summary: 'The standings as JSON, or as CSV (`?format=csv` or `Accept: text/csv`)',
          description:
            'CSV: a header `rank,registrationNo,name,tp,<tie-breaks...>`, CRLF lines, exact numbers (`3/2`), fields quoted as RFC 4180 says. A knockout ranks by placings: no points, no tie-breaks.',
          tags: ['tournaments'],
          parameters: [
            tournamentId,
            { name: 'afterRound', in: 'query', description: 'After this many rounds (0 to the completed rounds); omitted: after the completed rounds', schema: { type: 'integer', minimum: 0 } },
            { name: 'format', in: 'query', description: '`json` or `csv`; omitted: as the Accept header asks (JSON by default)', schema: { type: 'string', enum: ['json', 'csv'] } },
          ],
          security: [],
          responses: {
            '200': {
              description: 'The standings',
              content: {
                'application/json': {
                  schema: { type: 'object', required: ['afterRound', 'rows'], properties: { afterRound: { type: 'integer', minimum: 0 }, rows: { type: 'array', items: standingRow } } },
                },
                'text/csv': { schema: { type: 'string' } },
              },
            },
            '400': ref('responses', 'InvalidInput'),
            ...tournamentRefusals,
          },
        },
      },
      '/api/tournaments/{id}/games': {
        get: {
          operationId: 'getTournamentGames',
          summary: 'The scheduled games, one JSON object a line, round by round and board by board',
          tags: ['tournaments'],
          parameters: [tournamentId],
          security: [],
          responses: {
            '200': {
              description: 'The games, one a line',
              content: {
                'application/x-ndjson': {
                  schema: {
                    type: 'object',
                    required: ['gameId', 'round', 'board', 'seats', 'status', 'result'],
                    properties: {
                      gameId: { type: 'string' },
                      round: { type: 'integer', minimum: 1 },
                      board: { type: 'integer', minimum: 1 },
                      seats: {
                        type: 'array',
                        description: 'Seat 0 first',
                        items: { type: 'object', required: ['participantId', 'name'], properties: { participantId: { type: 'string' }, name: { type: 'string' } } },
                      },
                      status: { type: ['string', 'null'], enum: ['WAITING', 'ACTIVE', 'FINISHED', 'ABORTED', null] },
                      result: gameResult,
                    },
                  },
                },
              },
            },
            ...tournamentRefusals,
          },
        },
      },
      '/api/tournaments/{id}/events': {
        get: {
          operationId: 'getTournamentEvents',
          summary: "The tournament's hash-chained events, one JSON object a line",
          tags: ['tournaments'],
          parameters: [
            tournamentId,
            { name: 'afterSeq', in: 'query', description: 'Only the events after this sequence number (0, the default: all)', schema: { type: 'integer', minimum: 0, maximum: 999_999_999_999_999 } },
          ],
          security: [],
          responses: {
            '200': { description: 'The events, one a line', content: { 'application/x-ndjson': { schema: ref('schemas', 'StoredEvent') } } },
            '400': ref('responses', 'InvalidInput'),
            ...tournamentRefusals,
          },
        },
      },
      '/api/tournaments/{id}/bundle': {
        get: {
          operationId: 'getTournamentBundle',
          summary: 'The whole tournament as a self-contained, verifiable JSON file: its events and every game bundle',
          tags: ['tournaments'],
          parameters: [tournamentId],
          security: [],
          responses: {
            '200': {
              description: 'The bundle',
              headers: { 'Content-Disposition': { description: '`attachment; filename="<id>.tournament.json"`', schema: { type: 'string' } } },
              content: json({
                type: 'object',
                required: ['format', 'tournament', 'hashAlgorithm', 'head', 'events', 'games'],
                properties: {
                  format: { type: 'string', const: 'arbiter-tournament-bundle/1' },
                  tournament: { type: 'object', description: 'id, name, kind, format, status, seedCommitment, seed (null until finished)' },
                  hashAlgorithm: { type: 'string', const: 'sha256(prevHash || RFC8785(event))' },
                  head: { type: 'object', required: ['seq', 'hash'], properties: { seq: { type: 'integer' }, hash: { type: 'string' } } },
                  events: { type: 'array', items: ref('schemas', 'StoredEvent') },
                  games: { type: 'array', items: ref('schemas', 'Bundle') },
                },
              }),
            },
            '409': ref('responses', 'NotFinished'),
            ...tournamentRefusals,
          },
        },
      },
      '/api/me': {
        get: {
          operationId: 'getMe',
          summary: "The caller's player or app and its keys (docs/players.md)",
          description: "Needs a player's (`arbk_`) or an app's (`arba_`) key; keys are issued, rotated and revoked over GraphQL. The secrets are never listed, only their first characters.",
          tags: ['players'],
          security: [{ key: [] }],
          responses: {
            '200': { description: 'The caller', content: json(ref('schemas', 'Me')) },
            '401': { description: '`UNAUTHORIZED`: no key, or a key unknown, rotated or revoked', content: json(ref('schemas', 'Error')) },
            '4XX': ref('responses', 'Unreadable'),
            ...commonRefusals,
          },
        },
      },
      '/api/openapi.json': {
        get: {
          operationId: 'getOpenApi',
          summary: 'This document',
          tags: ['operations'],
          security: [],
          responses: { '200': { description: 'OpenAPI 3.1', content: json({ type: 'object' }) }, '429': ref('responses', 'RateLimited') },
        },
      },
      '/healthz': {
        get: {
          operationId: 'health',
          summary: 'Liveness: 200 while the process serves',
          description: '503 `DATABASE_FAILED` only when the embedded database failed in a way only a restart recovers from. Not rate limited.',
          tags: ['operations'],
          security: [],
          responses: {
            '200': { description: 'Serving', content: json(ref('schemas', 'Health')) },
            '503': { description: 'Restart needed', content: json(ref('schemas', 'Health')) },
            '4XX': ref('responses', 'Unreadable'),
          },
        },
      },
      '/readyz': {
        get: {
          operationId: 'ready',
          summary: 'Readiness: 200 when requests can be served (point load balancers here)',
          tags: ['operations'],
          security: [],
          responses: {
            '200': { description: 'Ready', headers: { 'Cache-Control': { description: '`no-store`', schema: { type: 'string' } } }, content: json(ref('schemas', 'Readiness')) },
            '429': ref('responses', 'RateLimited'),
            '503': { description: 'Not ready, with a reason', headers: { 'Cache-Control': { description: '`no-store`', schema: { type: 'string' } } }, content: json(ref('schemas', 'Readiness')) },
          },
        },
      },
      '/metrics': {
        get: {
          operationId: 'metrics',
          summary: 'Prometheus metrics (text exposition format 0.0.4). Not rate limited.',
          tags: ['operations'],
          security: [],
          responses: { '200': { description: 'The metrics', content: { 'text/plain': { schema: { type: 'string' } } } }, '4XX': ref('responses', 'Unreadable') },
        },
      },
    },
    components: {
      securitySchemes: {
        key: {
          type: 'http',
          scheme: 'bearer',
          description: "A player's (`arbk_`) or an app's (`arba_`) key from createPlayer, createApp or issueKey (docs/players.md); each operation needs a scope of it.",
        },
        seatToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'A seat token from createGame, joinGame or an import. Optional: without one the caller is a spectator.',
        },
        playerKey: { type: 'http', scheme: 'bearer', description: "A player's key (arbk_…, docs/players.md): it acts as the player's seats and reads the player's games." },
      },
      parameters: {
        GameId: { name: 'id', in: 'path', required: true, description: 'The game id', schema: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' } },
        IfNoneMatch: { name: 'If-None-Match', in: 'header', description: 'An ETag this endpoint gave: 304 while it still holds', schema: { type: 'string' } },
      },
      headers: {
        ETag: { description: 'The game version and the caller seat, e.g. `"42-0"` or `"42-spectator"`', schema: { type: 'string', pattern: '^"[0-9]+-[A-Za-z0-9]+"$' } },
        RetryAfter: { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } },
      },
      responses: {
        InvalidInput: { description: '`INVALID_INPUT`: a malformed parameter or body', content: json(ref('schemas', 'Error')) },
        Unauthorized: { description: '`UNAUTHORIZED`: the bearer token is not a seat of this game', content: json(ref('schemas', 'Error')) },
        NotFound: { description: '`NOT_FOUND`: no such game', content: json(ref('schemas', 'Error')) },
        NotFinished: { description: '`GAME_NOT_FINISHED`: the game hides information until it ends', content: json(ref('schemas', 'Error')) },
        Refused: { description: 'A refusal with its stable code (`ILLEGAL_MOVE` in an imported record, `INTEGRITY_ERROR`, ...)', content: json(ref('schemas', 'Error')) },
        PayloadTooLarge: { description: '`PAYLOAD_TOO_LARGE`: the body is larger than MAX_BODY_BYTES', content: json(ref('schemas', 'Error')) },
        RateLimited: {
          description: '`RATE_LIMITED`: too many requests (RATE_LIMIT_PER_MINUTE) or games created (CREATE_QUOTA_PER_HOUR)',
          headers: { 'Retry-After': ref('headers', 'RetryAfter') },
          content: json(ref('schemas', 'Error')),
        },
        Unreadable: { description: 'The request could not be read: a malformed URL, or headers larger than the server takes' },
        Unavailable: { description: '`SHUTTING_DOWN` or `STORAGE_UNAVAILABLE`: try again later (or on another instance)', content: json(ref('schemas', 'Error')) },
      },
      schemas: {
        MoveAccepted: {
          type: 'object',
          required: ['gameId', 'seat', 'version', 'status', 'events', 'game'],
          properties: {
            gameId: { type: 'string' },
            seat: { type: 'integer', description: "The seat that acted (-1: the organizer of the game's tournament)" },
            version: { type: 'integer', description: 'The game version after the command: the next expectedVersion, and atLeastVersion for reads on any instance' },
            status: { type: 'string', enum: ['WAITING', 'ACTIVE', 'FINISHED', 'ABORTED'] },
            events: { type: 'array', items: ref('schemas', 'StoredEvent'), description: 'The events the command stored, as the seat may see them' },
            game: ref('schemas', 'GameDetail'),
          },
        },
        Me: {
          type: 'object',
          required: ['player', 'app', 'keyId', 'scopes', 'keys'],
          properties: {
            player: { type: ['object', 'null'], description: "The key's player: id, name, externalId, appId, createdAt; null for an app's key" },
            app: { type: ['object', 'null'], description: "The key's app: id, name, createdAt; null for a player's key" },
            keyId: { type: 'string', description: 'The key this request was made with' },
            scopes: { type: 'array', items: { type: 'string', enum: ['read', 'play', 'create_games', 'tournaments', 'webhooks', 'players'] } },
            keys: {
              type: 'array',
              description: "The account's keys, oldest first: id, prefix (the first characters), scopes, createdAt, lastUsedAt, revokedAt",
              items: { type: 'object' },
            },
          },
        },
        Error: {
          type: 'object',
          required: ['error'],
          additionalProperties: false,
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: { type: 'string', description: 'Stable: INVALID_INPUT, NOT_FOUND, RATE_LIMITED, GAME_NOT_FINISHED, PAYLOAD_TOO_LARGE, SHUTTING_DOWN, ...', examples: ['NOT_FOUND'] },
                message: { type: 'string', description: 'For people; may change' },
                currentVersion: { type: ['integer', 'null'], description: "A refused seat command's: the game version now (read it again and decide anew)" },
              },
            },
          },
        },
        Seat: {
          type: 'object',
          required: ['index', 'name', 'taken', 'player'],
          properties: {
            index: { type: 'integer', minimum: 0 },
            name: { type: ['string', 'null'] },
            taken: { type: 'boolean', description: 'Whether a player holds this seat' },
            player: { type: ['string', 'null'], description: "The player the seat is bound to (its key acts as the seat); null: an anonymous seat token's, or open" },
          },
        },
        Outcome: {
          type: ['object', 'null'],
          description: 'Null until the game ends',
          properties: {
            winners: { type: 'array', items: { type: 'integer' } },
            points: { type: 'array', items: { type: 'number' } },
            summary: { type: 'string' },
            details: { description: 'Game-specific detail' },
          },
        },
        GameDetail: {
          type: 'object',
          description: 'The same fields as GraphQL `Game` answers them (both are built from one answer of the game for the caller)',
          required: [
            'id',
            'kind',
            'status',
            'version',
            'headHash',
            'ruleset',
            'rulesetHash',
            'imported',
            'createdAt',
            'seats',
            'tournamentId',
            'round',
            'board',
            'mySeat',
            'toAct',
            'view',
            'legalActions',
            'result',
            'fairness',
            'clock',
          ],
          properties: {
            id: { type: 'string' },
            kind: { type: 'string', examples: ['backgammon'] },
            status: { type: 'string', enum: ['WAITING', 'ACTIVE', 'FINISHED', 'ABORTED'] },
            version: { type: 'integer', description: 'seq of the last event; pass it as expectedVersion' },
            headHash: { type: ['string', 'null'], description: 'Hash of the event at `version`' },
            ruleset: { type: 'object', description: 'The complete ruleset, defaults filled in' },
            rulesetHash: { type: 'string' },
            imported: { type: 'boolean' },
            createdAt: { type: 'string', format: 'date-time' },
            seats: { type: 'array', items: ref('schemas', 'Seat') },
            tournamentId: { type: ['string', 'null'], description: 'The tournament that scheduled the game; null outside tournaments' },
            round: { type: ['integer', 'null'], description: 'The tournament round the game was scheduled in (from 1); null outside tournaments' },
            board: { type: ['integer', 'null'], description: 'The board of its tournament round (from 1); null outside tournaments' },
            mySeat: { type: ['integer', 'null'], description: "The caller's seat (null for a spectator)" },
            toAct: { type: 'array', items: { type: 'integer' }, description: 'Seats that may act now' },
            view: { description: 'The game as the caller may see it (game-specific JSON)' },
            legalActions: { type: 'array', description: "The caller's legal actions (game-specific JSON)", items: {} as Schema },
            result: ref('schemas', 'Outcome'),
            fairness: {
              type: 'object',
              required: ['seedCommitment', 'randomSource', 'serverSeed', 'clientSeeds'],
              properties: {
                seedCommitment: { type: 'string', description: 'SHA-256 of the server seed, published at creation' },
                randomSource: { type: 'string', enum: ['fair', 'supplied'] },
                serverSeed: { type: ['string', 'null'], description: 'Revealed when the game ends' },
                clientSeeds: { type: 'array', items: { type: ['string', 'null'] }, description: 'Client seeds mixed in before play started, per seat (null: none given); empty until then' },
              },
            },
            clock: { oneOf: [ref('schemas', 'GameClock'), { type: 'null' }], description: 'The clocks, as GraphQL `Game.clock` answers them; null for a game without a time control' },
          },
        },
        GameClock: {
          type: 'object',
          description:
            "A game's clocks as of the answer. Between two versions only `remainingMs` and `timedOut` change: an answer revalidated with 304 keeps the ones it had, so count down to `deadline`",
          required: ['kind', 'control', 'remainingMs', 'running', 'deadline', 'paused', 'pauseRequests', 'timedOut', 'autoPlayed', 'vacationLeftMs'],
          properties: {
            kind: { type: 'string', enum: ['CORRESPONDENCE', 'FISCHER'] },
            control: ref('schemas', 'TimeControl'),
            remainingMs: { type: 'array', items: { type: 'number', minimum: 0 }, description: 'Per seat, milliseconds left as of the answer: its own time plus time added to it' },
            running: { type: 'array', items: { type: 'integer' }, description: 'Seats whose clock runs now (the game waits for their decision)' },
            deadline: { type: ['string', 'null'], format: 'date-time', description: "When the first running seat's time runs out; null when no clock runs" },
            paused: { type: 'boolean', description: 'The clocks are paused (every seat asked)' },
            pauseRequests: { type: 'array', items: { type: 'integer' }, description: 'Seats asking to pause (or, while paused, to resume)' },
            timedOut: { type: 'array', items: { type: 'integer' }, description: 'Seats out of time: those timed out, then running seats at 0 whose timeout is being recorded' },
            autoPlayed: { type: 'array', items: { type: 'integer' }, description: 'Seats the referee plays for until the round ends, after their timeout (Chicken Foot)' },
            vacationLeftMs: { type: 'array', items: { type: 'number', minimum: 0 }, description: 'Per seat, milliseconds of vacation it may still take (correspondence; 0 otherwise)' },
          },
        },
        TimeControl: {
          type: 'object',
          description: 'A time control as created, in seconds: the fields of its kind, the others null',
          required: ['kind', 'perMoveSeconds', 'bankCapSeconds', 'vacationSeconds', 'baseSeconds', 'incrementSeconds'],
          properties: {
            kind: { type: 'string', enum: ['CORRESPONDENCE', 'FISCHER'] },
            perMoveSeconds: { type: ['integer', 'null'], description: 'CORRESPONDENCE: seconds added to the bank when a turn starts' },
            bankCapSeconds: { type: ['integer', 'null'], description: 'CORRESPONDENCE: the most the bank holds; null: time left over is not kept' },
            vacationSeconds: { type: ['integer', 'null'], description: 'CORRESPONDENCE: vacation each seat may take in the game' },
            baseSeconds: { type: ['integer', 'null'], description: 'FISCHER: seconds each seat has for the whole game' },
            incrementSeconds: { type: ['integer', 'null'], description: 'FISCHER: seconds added after each turn' },
          },
        },
        StoredEvent: {
          type: 'object',
          required: ['seq', 'type', 'actor', 'moveId', 'bodyHash', 'payload', 'createdAt', 'prevHash', 'hash'],
          properties: {
            seq: { type: 'integer', minimum: 1 },
            type: { type: 'string', examples: ['GameCreated', 'DiceRolled', 'ActionTaken', 'SeedRevealed'] },
            actor: { type: ['integer', 'null'], description: "The seat that caused it; null for the referee's own events" },
            moveId: { type: ['string', 'null'] },
            bodyHash: { type: ['string', 'null'] },
            payload: { type: 'object' },
            createdAt: { type: 'string', format: 'date-time' },
            prevHash: { type: 'string' },
            hash: { type: 'string', description: 'SHA-256(prevHash || RFC 8785 JSON of the event)' },
          },
        },
        Bundle: {
          type: 'object',
          required: ['format', 'game', 'hashAlgorithm', 'events'],
          properties: {
            format: { type: 'string', const: 'arbiter-bundle/1' },
            game: { type: 'object', description: 'The game: id, kind, status, ruleset, seedCommitment, serverSeed, seats, result, ...' },
            hashAlgorithm: { type: 'string', const: 'sha256(prevHash || RFC8785(event))' },
            head: { type: 'object', required: ['seq', 'hash'], properties: { seq: { type: 'integer' }, hash: { type: 'string' } } },
            events: { type: 'array', items: ref('schemas', 'StoredEvent') },
          },
        },
        ImportedGame: {
          type: 'object',
          required: ['id', 'kind', 'status', 'version', 'result', 'tokens'],
          properties: {
            id: { type: 'string' },
            kind: { type: 'string' },
            status: { type: 'string', enum: ['WAITING', 'ACTIVE', 'FINISHED', 'ABORTED'] },
            version: { type: 'integer' },
            result: ref('schemas', 'Outcome'),
            tokens: {
              type: 'array',
              items: {
                type: 'object',
                required: ['seat', 'token'],
                properties: { seat: { type: 'integer' }, token: { type: 'string', description: 'Secret: send it as `Authorization: Bearer <token>`' } },
              },
            },
          },
        },
        Health: {
          type: 'object',
          required: ['status', 'database'],
          properties: {
            status: { type: 'string', enum: ['ok', 'failed'] },
            reason: { type: 'string', enum: ['DATABASE_FAILED'] },
            database: { type: 'string', examples: ['pglite', 'postgresql'] },
          },
        },
        Readiness: {
          type: 'object',
          required: ['status'],
          properties: {
            status: { type: 'string', enum: ['ready', 'unavailable'] },
            reason: { type: 'string', enum: ['DRAINING', 'STORAGE_UNAVAILABLE', 'DATABASE_UNAVAILABLE', 'MIGRATIONS_PENDING'] },
          },
        },
      },
    },
  };
}
