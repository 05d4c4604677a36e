import { Global, Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { GameConsequences, ProjectionWriters, TournamentConsequences } from '../referee/index.js';
import { LogController } from './log.controller.js';
import { GameEntries, LOG_ENTRIES_SQL, TournamentEntries } from './log-entries.js';
import { LogStore } from './log-store.js';
import { TransparencyLog } from './transparency-log.js';

/**
 * The transparency log (docs/transparency.md): a finished game's or tournament's entry is a
 * consequence of the append that finishes it (its writer goes into the append's statement or
 * transaction); the checkpoint worker sequences the entries and signs checkpoints; the REST routes
 * serve checkpoints and proofs. Global: the bundles (src/api, src/tournaments) carry its proofs.
 */
@Global()
@Module({ providers: [LogStore, TransparencyLog], controllers: [LogController], exports: [TransparencyLog] })
export class TransparencyModule implements OnModuleInit, OnModuleDestroy {
  private unregister: (() => void)[] = [];

  constructor(
    private readonly writers: ProjectionWriters,
    private readonly games: GameConsequences,
    private readonly tournaments: TournamentConsequences,
  ) {}

  /** The writer stays while the store lives: an append in flight may carry entries derived before the handlers went. */
  onModuleInit(): void {
    this.writers.register(LOG_ENTRIES_SQL);
    this.unregister = [this.games.register(new GameEntries()), this.tournaments.register(new TournamentEntries())];
  }

  onModuleDestroy(): void {
    for (const done of this.unregister) done();
    this.unregister = [];
  }
}
