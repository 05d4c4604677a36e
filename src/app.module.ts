import { InMemoryLRUCache } from '@apollo/utils.keyvaluecache';
import type { DocumentNode } from 'graphql';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { GraphQLModule } from '@nestjs/graphql';
import { ErrorFilter } from './api/error.filter.js';
import { GamesController } from './api/games.controller.js';
import { MyGamesController, MyStreamController } from './api/my-games.controller.js';
import { MeGamesResolver, MyGamesResolver } from './api/my-games.resolver.js';
import { GameConnectionResolver, GamesResolver, MoveAcceptedResolver } from './api/games.resolver.js';
import { GraphiqlController } from './api/graphiql.controller.js';
import { graphqlOverHttpStatusPlugin } from './api/graphql-over-http.plugin.js';
import { WebController } from './api/web.controller.js';
import { OpenApiController } from './api/openapi.controller.js';
import { JSONScalar } from './api/json.scalar.js';
import { TypedAnswersModule } from './api/typed-answers.module.js';
import { callerLimits } from './api/connection-limits.js';
import { MAX_QUERY_TOKENS, queryLimits } from './api/limits.js';
import { limitsPlugin } from './api/rate-budgets.js';
import { ChallengesModule } from './challenges/index.js';
import { ConfigModule } from './config/config.module.js';
import type { Config } from './config/config.js';
import { DatabaseModule } from './database/database.module.js';
import { GAMES } from './games/index.js';
import { type GamePackage, served } from './games/game-package.js';
import { BackupSocket } from './ops/backup-socket.js';
import { OpsController } from './ops/ops.controller.js';
import { RefereeModule } from './referee/index.js';
import { graphqlMetricsPlugin } from './ops/graphql-metrics.plugin.js';
import { MetricsService } from './ops/metrics.service.js';
import { PlayersModule } from './players/index.js';
import { RatingsModule } from './ratings/index.js';
import { ScopesGuard } from './api/scopes.js';
import { TournamentsModule } from './tournaments/index.js';
import { TransparencyModule } from './transparency/index.js';
import { WebhooksModule } from './webhooks/index.js';
import { WorkerRecordParser } from './workers/record-parser.js';

@Module({})
export class AppModule {
  /** The service over `games` (every game this referee ships, unless a test adds one): their engines, their APIs and the typed answers over them. */
  static async forRoot(config: Config, games: readonly GamePackage[] = GAMES): Promise<DynamicModule> {
    // Shared with createApp, which wires the token lookup and the proxy trust into it.
    const limits = callerLimits(config);
    const servedGames = await Promise.all(games.map(served));
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        DatabaseModule,
        RefereeModule.forRoot({ engines: games.map((g) => g.engine), metrics: MetricsService, recordParser: () => new WorkerRecordParser() }),
        GraphQLModule.forRoot<ApolloDriverConfig>({
          driver: ApolloDriver,
          autoSchemaFile: true,
          sortSchema: true,
          resolvers: { JSON: JSONScalar },
          // graphql-ws: connections counted per caller, every operation limited like over HTTP, subscriptions capped.
          subscriptions: { 'graphql-ws': limits.graphqlWs() },
          // The request or the graphql-ws connection, and the caller's creation quota.
          context: (c: Parameters<typeof limits.graphqlContext>[0]) => limits.graphqlContext(c),
          validationRules: [queryLimits(config.maxQueryDepth, config.maxQueryComplexity, config.maxExpensiveFields)],
          // No landing page from Apollo (Sandbox, loaded from a CDN) nor the driver's GraphiQL: Apollo's landing page is
          // disabled, and src/api/graphiql.controller.ts serves a GraphiQL bundled at build time at /graphiql.
          graphiql: false,
          // Answers are per caller and never HTTP-cached: skip the per-field cache-control hooks.
          // limitsPlugin charges expensive fields and game creations to the caller before anything runs.
          // graphqlMetricsPlugin names each operation and its outcome for the request's metrics and log line.
          // graphqlOverHttpStatusPlugin answers a request that cannot run with the status its media type asks for.
          plugins: [ApolloServerPluginCacheControlDisabled(), ApolloServerPluginInlineTraceDisabled(), limitsPlugin(limits), graphqlMetricsPlugin(), graphqlOverHttpStatusPlugin()],
          introspection: true,
          includeStacktraceInErrorResponses: false,
          // A document of more tokens than any real query is refused before it can exhaust the parser's stack.
          parseOptions: { maxTokens: MAX_QUERY_TOKENS },
          // Parsed documents are cached for repeated queries, within a stated memory bound (about 8 MiB of JSON).
          documentStore: new InMemoryLRUCache<DocumentNode>({ maxSize: 8 * 2 ** 20 }),
          // Apollo files every validation failure as GRAPHQL_VALIDATION_FAILED; keep our limits' own codes.
          formatError: (formatted, error) => {
            const own = (error as { originalError?: { extensions?: { code?: unknown } } }).originalError?.extensions?.code;
            if (formatted.extensions?.code === 'GRAPHQL_VALIDATION_FAILED' && typeof own === 'string') return { ...formatted, extensions: { ...formatted.extensions, code: own } };
            // graphql-js gives up after 50 bad variables with an error Apollo files as internal: it is the caller's input.
            if (formatted.extensions?.code === 'INTERNAL_SERVER_ERROR' && formatted.message.startsWith('Too many errors processing variables')) {
              return { ...formatted, extensions: { ...formatted.extensions, code: 'BAD_USER_INPUT' } };
            }
            return formatted;
          },
        }),
        ...servedGames.map((g) => g.module),
        TypedAnswersModule.forRoot(servedGames),
        TournamentsModule,
        PlayersModule,
        ChallengesModule,
        RatingsModule,
        WebhooksModule,
        TransparencyModule,
      ],
      controllers: [GamesController, MyGamesController, MyStreamController, OpsController, GraphiqlController, OpenApiController, WebController],
      providers: [
        GamesResolver,
        MoveAcceptedResolver,
        GameConnectionResolver,
        MyGamesResolver,
        MeGamesResolver,
        BackupSocket,
        { provide: APP_FILTER, useClass: ErrorFilter },
        { provide: APP_GUARD, useClass: ScopesGuard },
      ],
    };
  }
}
