/**
 * The OpenAPI 3.1 description of the REST endpoints (src/api/games.controller.ts) and the
 * operations endpoints (src/ops/ops.controller.ts), served at GET /api/openapi.json. Written by
 * hand as a typed object: the controllers take raw query strings and bodies (several content
 * types for an import, NDJSON streams, ETag/304), which decorators would describe no better.
 * test/e2e/openapi.spec.ts checks that every route the app registers is here and vice versa.
 */
import type { OpenApiDocument } from './builders.js';
import { challengePaths } from './challenges.js';
import { components } from './components.js';
import { gamePaths } from './games.js';
import { operationPaths } from './operations.js';
import { inboxPaths, playerPaths } from './players.js';
import { ratingPaths } from './ratings.js';
import { tournamentCommandPaths } from './tournament-commands.js';
import { tournamentPaths } from './tournaments.js';
import { logPaths } from './transparency.js';

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
      { name: 'ratings', description: "Ratings (docs/ratings.md): a player's, its history, the leaderboards" },
      { name: 'tournaments', description: 'A tournament, its standings (JSON or CSV), games, events and verifiable bundle; run it over GraphQL' },
      { name: 'log', description: 'The transparency log (docs/transparency.md): signed checkpoints, its key, inclusion and consistency proofs' },
    ],
    // Spread in the order the routes have always been listed: the document's bytes depend on it.
    paths: { ...gamePaths(kinds), ...inboxPaths, ...challengePaths(kinds), ...tournamentCommandPaths, ...tournamentPaths, ...playerPaths, ...ratingPaths, ...operationPaths, ...logPaths },
    components,
  };
}
