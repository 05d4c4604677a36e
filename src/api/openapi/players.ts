/** The routes of the player (or app) whose key calls: its inbox and stream (tagged `games`), and itself (`players`). */
import { commonRefusals, json, type Paths, ref } from './builders.js';
import { freeObject } from './game-json.js';

/** The inbox and the stream of the player whose key calls. */
export const inboxPaths: Paths = {
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
        'Types: `game.started`, `game.your_turn` (with `deadline` and `remainingMs` when a clock runs), `game.over` (with `reason` and `result`), `game.timed_out`, `game.pause_requested`, `game.time_given`, `game.opponent_on_vacation`, `challenge.received`, `challenge.accepted`, `challenge.declined`, `challenge.cancelled`, and for a participant of a tournament `tournament.participant_registered`, `tournament.check_in_opened`, `tournament.round_paired` (its board, game, seat and opponents), `tournament.result_reported`, `tournament.result_disputed`, `tournament.dispute_settled`, `tournament.finished` (docs/webhooks.md). ' +
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
                  data: freeObject(
                    "What the notice says (docs/players.md): a game's notice has `gameId`, `kind` and `mySeat`, and by type `game.your_turn` `seat`, `deadline`, `remainingMs`; " +
                      '`game.timed_out` `seat`, `rule`; `game.over` `reason`, `result`; `game.pause_requested` `seat`; `game.time_given` `seat`, `ms`, `bySeat`; `game.opponent_on_vacation` `seat`, `ms`; ' +
                      "a challenge's notice has the challenge",
                  ),
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
};

/** The caller's player or app and its keys. */
export const playerPaths: Paths = {
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
};
