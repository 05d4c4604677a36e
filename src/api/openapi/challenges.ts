/** The `challenges` routes: issue, list, accept, decline, cancel, with a player key. */
import { commonRefusals, json, type Parameter, type Paths, ref, type Schema } from './builders.js';
import { rulesetSchema } from './game-json.js';

/** A time control as createGame takes it, in seconds (docs/time-controls.md); null or `none`: no clock. */
const timeControlInput: Schema = {
  description: 'As createGame takes it, in seconds: {"kind": "correspondence", "perMoveSeconds": 86400} or {"kind": "fischer", "baseSeconds": 600}; omitted, null or {"kind": "none"}: no clock',
  oneOf: [
    { type: 'object', required: ['kind'], additionalProperties: false, properties: { kind: { type: 'string', const: 'none' } } },
    {
      type: 'object',
      required: ['kind', 'perMoveSeconds'],
      additionalProperties: false,
      properties: {
        kind: { type: 'string', const: 'correspondence' },
        perMoveSeconds: { type: 'integer', minimum: 60, maximum: 5_184_000, description: 'Added to the bank when a turn starts' },
        bankCapSeconds: { type: ['integer', 'null'], minimum: 60, maximum: 31_536_000, description: 'The most the bank holds (at least perMoveSeconds); omitted or null: time left over is not kept' },
        vacationSeconds: { type: 'integer', minimum: 0, maximum: 31_536_000, description: 'Vacation each seat may take in the game; omitted: 0' },
      },
    },
    {
      type: 'object',
      required: ['kind', 'baseSeconds'],
      additionalProperties: false,
      properties: {
        kind: { type: 'string', const: 'fischer' },
        baseSeconds: { type: 'integer', minimum: 10, maximum: 2_592_000, description: "Each seat's time for the whole game" },
        incrementSeconds: { type: 'integer', minimum: 0, maximum: 86_400, description: 'Added after each turn; omitted: 0' },
      },
    },
    { type: 'null' },
  ],
};

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
    ruleset: rulesetSchema('Every option resolved, as the game will have it'),
    timeControl: { oneOf: [ref('schemas', 'TimeControl'), { type: 'null' }], description: "The game's clock in seconds, as GraphQL's TimeControl; null: none" },
    rated: { type: 'boolean', description: "Its game counts for both players' ratings (docs/ratings.md)" },
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

/** The challenge routes, for a service that plays `kinds`. */
export function challengePaths(kinds: readonly string[]): Paths {
  return {
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
              ruleset: rulesetSchema('As createGame takes it: the options to change; omitted, the defaults'),
              timeControl: timeControlInput,
              seat: { type: 'string', enum: ['FIRST', 'SECOND', 'RANDOM'], description: "The challenger's seat; omitted: RANDOM" },
              message: { type: 'string', maxLength: 500 },
              expiresInSeconds: { type: 'integer', minimum: 60, maximum: 2_592_000, description: 'Omitted: 7 days' },
              rated: { type: 'boolean', description: "The game counts for both players' ratings (docs/ratings.md); omitted: false" },
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
  };
}
