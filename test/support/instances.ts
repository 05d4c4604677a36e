import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DatabaseService } from '../../src/database/database.service.js';
import { MetricsService } from '../../src/ops/metrics.service.js';
import { RefereeService } from '../../src/referee/application/referee.service.js';
import { TournamentService } from '../../src/referee/application/tournament.service.js';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { EventStore } from '../../src/referee/store/event-store.js';
import { TokenDirectory } from '../../src/referee/application/directories.js';
import { PostgresTournamentStore } from '../../src/referee/store/postgres-tournament-store.js';
import type { TournamentStore } from '../../src/referee/store/tournament-store.js';
import { TournamentTokens } from '../../src/tournaments/tournament-tokens.js';

/** Who a token is over these stores, as the application's directory says: seats, and the tournaments' participants and organizers. */
export function tokenDirectory(games: EventStore, tournaments: TournamentStore): TokenDirectory {
  const directory = TokenDirectory.withSeats(games);
  directory.register(new TournamentTokens(tournaments, directory));
  return directory;
}

export interface Instance {
  referee: RefereeService;
  tournaments: TournamentService;
}

/**
 * Another server process on the app's database: its own referee and tournament caches, over the
 * same stores. Its workflows are not started: a test takes their steps by hand where it wants
 * them (or never, as a process that stopped before taking them). `tournamentStore` stands for
 * the tournaments' store (a test's own stops a process at a tournament's append).
 */
export function anotherInstance(app: NestFastifyApplication, tournamentStore: TournamentStore = new PostgresTournamentStore(app.get(DatabaseService))): Instance {
  const registry = app.get(EngineRegistry);
  const games = app.get(EventStore);
  const referee = new RefereeService(games, registry, new MetricsService(), undefined, undefined, undefined, undefined, undefined, undefined, tokenDirectory(games, tournamentStore));
  const tournaments = new TournamentService(tournamentStore, app.get(EventStore), referee, registry);
  return { referee, tournaments };
}

/** A one-round Swiss of two, created and filled on `on`, paired on `pairOn`: its one game is being played; `loser` is the token of the seat that concedes in the tests. */
export async function swissOfTwo(on: Pick<Instance, 'tournaments'>, game: { kind: string; ruleset?: unknown }, pairOn: Pick<Instance, 'tournaments'> = on) {
  const { tournament, organizerToken } = await on.tournaments.create({ ...game, format: 'swiss', rounds: 1 });
  const id = tournament.tournamentId;
  const tokens = new Map<string, string>();
  for (const name of ['Ann', 'Bob']) {
    const r = await on.tournaments.register(id, organizerToken, { name });
    tokens.set(r.participantId, r.participantToken);
  }
  const [scheduled] = (await pairOn.tournaments.pairRound(id, organizerToken, 1)).rounds[0].boards[0].games;
  return { id, organizerToken, game: scheduled, loser: tokens.get(scheduled.seats[0])! };
}
