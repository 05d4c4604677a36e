import { isGameId } from '../core/ids.js';
import type { EventStore, GameStatus } from '../store/event-store.js';

/** Who a token is, found by its hash: a game's seat, a tournament's participant or its organizer. */
export type TokenRole = { role: 'seat'; gameId: string; seat: number } | { role: 'participant'; tournamentId: string; participantId: string } | { role: 'organizer'; tournamentId: string };

/** Finds the tokens of the tables one module owns. */
export interface TokenLookup {
  roleOf(tokenHash: string): Promise<TokenRole | null>;
}

/**
 * Who a token is, for modules that own no token (the webhooks): each module that issues tokens
 * registers the lookup of its own (the referee its seats', the tournaments their participants'
 * and organizers'), and the first that knows the token answers.
 */
export class TokenDirectory {
  private lookups: readonly TokenLookup[] = [];

  /** Asked from now on, after those registered before it, until the returned function is called. */
  register(lookup: TokenLookup): () => void {
    this.lookups = [...this.lookups, lookup];
    return () => {
      this.lookups = this.lookups.filter((l) => l !== lookup);
    };
  }

  async roleOf(tokenHash: string): Promise<TokenRole | null> {
    for (const lookup of this.lookups) {
      const role = await lookup.roleOf(tokenHash);
      if (role) return role;
    }
    return null;
  }

  /** The directory with the seats' tokens of `store` (its seat rows) in it. */
  static withSeats(store: EventStore): TokenDirectory {
    const directory = new TokenDirectory();
    directory.register({
      roleOf: async (tokenHash) => {
        const seat = await store.seatByTokenHash(tokenHash);
        return seat && { role: 'seat', gameId: seat.gameId, seat: seat.index };
      },
    });
    return directory;
  }
}

/** What other modules may ask of a game without loading its stream: its status and tournament. */
export class GameDirectory {
  constructor(private readonly store: EventStore) {}

  /** The game's status and tournament (null outside one); null when there is no such game. */
  async summary(gameId: string): Promise<{ status: GameStatus; tournamentId: string | null } | null> {
    const row = isGameId(gameId) ? await this.store.game(gameId) : null;
    return row && { status: row.status, tournamentId: row.tournamentId ?? null };
  }
}
