import { type DynamicModule, Module, type Type } from '@nestjs/common';
import { CONFIG, type Config } from '../../config/config.js';
import type { Engine } from '../../engines/kit/index.js';
import { EngineRegistry } from '../core/engine-registry.js';
import { AccountStore } from '../store/account-store.js';
import { ChallengeStore } from '../store/challenge-store.js';
import { DeadlineStore } from '../store/deadline-store.js';
import { EventStore } from '../store/event-store.js';
import { PlayerFeedStore } from '../store/player-feed-store.js';
import { PlayerGamesStore } from '../store/player-games-store.js';
import { PostgresAccountStore } from '../store/postgres-account-store.js';
import { PostgresChallengeStore } from '../store/postgres-challenge-store.js';
import { PostgresEventStore } from '../store/postgres-event-store.js';
import { PostgresRatingStore } from '../store/postgres-rating-store.js';
import { PostgresTournamentStore } from '../store/postgres-tournament-store.js';
import { RatingStore } from '../store/rating-store.js';
import { ProjectionWriters } from '../store/projections.js';
import { TournamentStore } from '../store/tournament-store.js';
import { Clock, SystemClock } from './clock.js';
import { ChallengeConsequences } from './challenges.js';
import { GameConsequences } from './consequences.js';
import { TournamentConsequences } from './tournament-streams.js';
import { BACKGROUND_WORK, DEADLINE_SETTINGS, type DeadlineSettings } from './deadlines.js';
import { GameDirectory, TokenDirectory } from './directories.js';
import { KeyDirectory } from './key-holders.js';
import { StoredKeys } from './accounts.js';
import { LowTimeListeners } from './low-time.js';
import { RefereeMetrics } from './metrics.port.js';
import { InThreadRecordParser, RecordParser } from './record-parser.js';
import { RatingService } from './ratings.js';
import { RefereeService } from './referee.service.js';
import { TournamentFeed } from './player-feed.js';

/**
 * The generic referee over PostgreSQL, with the engines the application gives it; game modules
 * add their typed APIs. Metrics come in through RefereeMetrics, and record parsing (off the event
 * loop, if the host can) through RecordParser, both provided by the host. The time of every
 * decision is the Clock's: the system's, unless `clock` gives another (tests move theirs by hand).
 * Other modules plug in through its registries: the games' consequences and their projections'
 * SQL writers, the low-time listeners, the token directory.
 */
@Module({})
export class RefereeModule {
  static forRoot(options: { engines: readonly Engine<any, any, any>[]; metrics: Type<RefereeMetrics>; recordParser?: () => RecordParser; clock?: () => Clock }): DynamicModule {
    return {
      module: RefereeModule,
      global: true,
      providers: [
        { provide: EngineRegistry, useFactory: () => EngineRegistry.of(options.engines) },
        ProjectionWriters,
        { provide: EventStore, useClass: PostgresEventStore },
        { provide: TournamentStore, useClass: PostgresTournamentStore },
        { provide: GameConsequences, useFactory: () => new GameConsequences() },
        { provide: ChallengeConsequences, useFactory: () => new ChallengeConsequences() },
        // The players' stream is told of the tournaments' notices; other modules register their handlers (the webhooks').
        {
          provide: TournamentConsequences,
          useFactory: (feed: PlayerFeedStore) => {
            const consequences = new TournamentConsequences();
            consequences.register(new TournamentFeed(feed));
            return consequences;
          },
          inject: [PlayerFeedStore],
        },
        { provide: LowTimeListeners, useFactory: () => new LowTimeListeners() },
        { provide: TokenDirectory, useFactory: TokenDirectory.withSeats, inject: [EventStore] },
        { provide: GameDirectory, useFactory: (store: EventStore) => new GameDirectory(store), inject: [EventStore] },
        { provide: AccountStore, useClass: PostgresAccountStore },
        { provide: ChallengeStore, useClass: PostgresChallengeStore },
        // Keys found in the database on every request (a revocation holds on every instance at once).
        { provide: KeyDirectory, useClass: StoredKeys },
        options.metrics,
        { provide: RefereeMetrics, useExisting: options.metrics },
        { provide: RecordParser, useFactory: options.recordParser ?? (() => new InThreadRecordParser()) },
        { provide: Clock, useFactory: options.clock ?? (() => new SystemClock()) },
        DeadlineStore,
        PlayerGamesStore,
        PlayerFeedStore,
        { provide: DEADLINE_SETTINGS, useFactory: (config: Config): DeadlineSettings => ({ pollMs: config.deadlinePollMs, sweepMs: config.deadlineSweepMs }), inject: [CONFIG] },
        { provide: BACKGROUND_WORK, useFactory: (config: Config): boolean => config.backgroundWork, inject: [CONFIG] },
        RefereeService,
        { provide: RatingStore, useClass: PostgresRatingStore },
        RatingService,
      ],
      exports: [
        BACKGROUND_WORK,
        EngineRegistry,
        RefereeService,
        EventStore,
        TournamentStore,
        options.metrics,
        RefereeMetrics,
        Clock,
        DeadlineStore,
        PlayerFeedStore,
        ProjectionWriters,
        GameConsequences,
        ChallengeConsequences,
        TournamentConsequences,
        LowTimeListeners,
        TokenDirectory,
        GameDirectory,
        KeyDirectory,
        AccountStore,
        ChallengeStore,
        RatingService,
      ],
    };
  }
}
