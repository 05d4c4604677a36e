/** The ratings' routes (docs/ratings.md): a player's ratings and their history, the leaderboards. */
import { commonRefusals, json, type Paths, ref, type Schema } from './builders.js';

const family: Schema = { type: 'string', enum: ['live', 'correspondence', 'untimed'], description: 'The time-control family: a Fischer clock, days per move, or none' };
const value: Schema = {
  type: 'object',
  required: ['rating', 'rd', 'volatility', 'games', 'lastAt'],
  properties: {
    rating: { type: 'number', description: 'Glicko-2 rating; Weng-Lin μ (Chicken Foot); six decimals' },
    rd: { type: 'number', description: 'Rating deviation; Weng-Lin σ' },
    volatility: { type: ['number', 'null'], description: 'Glicko-2 volatility; null for Weng-Lin' },
    games: { type: 'integer', minimum: 0 },
    lastAt: { type: ['string', 'null'], format: 'date-time', description: "When the player's last rated game before this ended" },
  },
};
const rating: Schema = {
  type: 'object',
  required: ['playerId', 'name', 'kind', 'family', 'rating', 'rd', 'volatility', 'provisional', 'games', 'lastPlayedAt'],
  properties: {
    playerId: { type: 'string' },
    name: { type: ['string', 'null'] },
    kind: { type: 'string' },
    family,
    rating: { type: 'number' },
    rd: { type: 'number' },
    volatility: { type: ['number', 'null'] },
    provisional: { type: 'boolean', description: 'While the deviation is above 110' },
    games: { type: 'integer', minimum: 1 },
    lastPlayedAt: { type: ['string', 'null'], format: 'date-time' },
  },
};
const page = [
  { name: 'first', in: 'query' as const, description: 'At most this many (1 to 100; 20 by default)', schema: { type: 'integer', minimum: 1, maximum: 100 } as Schema },
  { name: 'after', in: 'query' as const, description: "A page's `endCursor`: the items after it", schema: { type: 'string' } as Schema },
];
const path = (name: string, description: string, schema: Schema) => ({ name, in: 'path' as const, required: true, description, schema });
const refusals = (what: string) => ({
  '4XX': {
    description: `\`INVALID_INPUT\` (400) for a malformed parameter; \`NOT_FOUND\` (404) ${what}; \`SCOPE_MISSING\` (403) for a key without the scope read`,
    content: json(ref('schemas', 'Error')),
  },
  ...commonRefusals,
});
const pageOf = (items: string, item: Schema): Schema => ({
  type: 'object',
  required: [items, 'endCursor', 'hasNextPage'],
  properties: {
    [items]: { type: 'array', items: { ...item, required: [...(item.required ?? []), 'cursor'], properties: { ...item.properties, cursor: { type: 'string' } } } },
    endCursor: { type: ['string', 'null'] },
    hasNextPage: { type: 'boolean' },
  },
});

export const ratingPaths: Paths = {
  '/api/players/{id}/ratings': {
    get: {
      operationId: 'getPlayerRatings',
      summary: "A player's ratings: one per game kind and time-control family it played rated games in",
      description: 'GraphQL has the same as `player(id) { ratings }`.',
      tags: ['ratings'],
      parameters: [path('id', "The player's id", { type: 'string', pattern: '^pl-' })],
      security: [{}, { key: [] }],
      responses: {
        '200': {
          description: "The player's ratings",
          content: json({
            type: 'object',
            required: ['playerId', 'name', 'ratings'],
            properties: { playerId: { type: 'string' }, name: { type: 'string' }, ratings: { type: 'array', items: rating } },
          }),
        },
        ...refusals('for an unknown player'),
      },
    },
  },
  '/api/players/{id}/ratings/{kind}/{family}/history': {
    get: {
      operationId: 'getPlayerRatingHistory',
      summary: "A player's rating changes in one game kind and family, game by game, the newest first",
      description: 'A page at a time: pass `endCursor` as `after` while `hasNextPage`. GraphQL has the same as `PlayerRating.history`.',
      tags: ['ratings'],
      parameters: [path('id', "The player's id", { type: 'string' }), path('kind', 'The game kind', { type: 'string', maxLength: 40 }), path('family', 'The time-control family', family), ...page],
      security: [{}, { key: [] }],
      responses: {
        '200': {
          description: 'A page of changes',
          content: json(
            pageOf('changes', {
              type: 'object',
              required: ['gameId', 'seat', 'place', 'before', 'after', 'change', 'seq', 'ratedAt'],
              properties: {
                gameId: { type: 'string' },
                seat: { type: 'integer', minimum: 0 },
                place: { type: 'integer', minimum: 1, description: '1 the best; seats that tie share a place' },
                before: value,
                after: value,
                change: { type: 'number', description: 'after.rating − before.rating' },
                seq: { type: 'integer', minimum: 2, description: "The update's seq in its pool's stream" },
                ratedAt: { type: 'string', format: 'date-time' },
              },
            }),
          ),
        },
        ...refusals('(never: an unknown player or pool has no changes)'),
      },
    },
  },
  '/api/leaderboards/{kind}/{family}': {
    get: {
      operationId: 'getLeaderboard',
      summary: "A leaderboard: one game kind's ratings in one time-control family, the highest first (provisional ones marked)",
      description: 'A page at a time: pass `endCursor` as `after` while `hasNextPage`. GraphQL has the same as `leaderboard`.',
      tags: ['ratings'],
      parameters: [path('kind', 'The game kind', { type: 'string', maxLength: 40 }), path('family', 'The time-control family', family), ...page],
      security: [{}, { key: [] }],
      responses: {
        '200': { description: 'A page of ratings', content: json(pageOf('ratings', rating)) },
        ...refusals('(never: a pool nobody played is empty)'),
      },
    },
  },
};
