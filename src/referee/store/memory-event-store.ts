import type { StoredEvent } from '../core/stream.js';
import {
  AppendConflict,
  AppendWatchers,
  type AppendWatcher,
  type ConsequenceRows,
  EventStore,
  type GameCursor,
  type GameFilter,
  type GameHead,
  type GameStatus,
  type NewGame,
  type SeatClaim,
  type SeatRow,
  type StoredGame,
} from './event-store.js';

/**
 * The event store in memory, for unit tests: the same contract as PostgreSQL's (an append at a
 * taken version conflicts and stores nothing, its consequences' rows included; a seat is claimed
 * once), no durability. Each projection's rows are kept as given, in order (see projected).
 */
export class MemoryEventStore extends EventStore {
  private readonly games = new Map<string, StoredGame>();
  private readonly streams = new Map<string, StoredEvent[]>();
  private readonly watchers = new AppendWatchers();
  /** The rows stored with the appends, by projection, in order. */
  private readonly projections = new Map<string, unknown[]>();

  async createGame(game: NewGame, seats: SeatRow[], events: StoredEvent[], consequences: readonly ConsequenceRows[] = []): Promise<void> {
    if (this.games.has(game.id)) throw new AppendConflict('the game exists');
    const now = new Date();
    this.games.set(game.id, { tournamentId: null, round: null, board: null, ...game, createdAt: now, updatedAt: now, seats: seats.map((s) => ({ ...s })) });
    this.streams.set(game.id, [...events]);
    this.project(consequences);
    this.watchers.appended(game.id, game.version);
  }

  async append(gameId: string, events: StoredEvent[], head: GameHead, consequences: readonly ConsequenceRows[] = []): Promise<void> {
    this.appendNow(gameId, events, head, consequences);
  }

  async join(gameId: string, events: StoredEvent[], head: GameHead, seat: SeatClaim, consequences: readonly ConsequenceRows[] = []): Promise<void> {
    const row = this.games.get(gameId)?.seats.find((s) => s.index === seat.index);
    if (!row || row.tokenHash) throw new AppendConflict('seat already taken');
    this.appendNow(gameId, events, head, consequences);
    Object.assign(row, seat);
  }

  /** The rows stored for `projection` with the appends so far, in order. */
  projected(projection: string): readonly unknown[] {
    return this.projections.get(projection) ?? [];
  }

  private project(consequences: readonly ConsequenceRows[]): void {
    for (const c of consequences) {
      const held = this.projections.get(c.projection);
      if (held) held.push(...c.rows);
      else this.projections.set(c.projection, [...c.rows]);
    }
  }

  private appendNow(gameId: string, events: StoredEvent[], head: GameHead, consequences: readonly ConsequenceRows[]): void {
    const stream = this.streams.get(gameId);
    const game = this.games.get(gameId);
    if (!stream || !game) throw new Error(`no stream ${gameId}`);
    if (events.length > 0 && events[0].seq !== stream.length + 1) throw new AppendConflict('version taken');
    stream.push(...events);
    this.project(consequences);
    Object.assign(game, { version: head.version, headHash: head.hash, status: head.status, result: head.result ?? null, updatedAt: new Date() });
    this.watchers.appended(gameId, head.version);
  }

  async game(id: string): Promise<StoredGame | null> {
    const g = this.games.get(id);
    return g ? { ...g, seats: g.seats.map((s) => ({ ...s })) } : null;
  }

  async events(gameId: string, afterSeq = 0, limit?: number, untilSeq?: number): Promise<StoredEvent[]> {
    const picked = (this.streams.get(gameId) ?? []).filter((e) => e.seq > afterSeq && (untilSeq === undefined || e.seq <= untilSeq));
    return limit === undefined ? picked : picked.slice(0, limit);
  }

  async versions(gameIds: readonly string[]): Promise<Map<string, number>> {
    return new Map(gameIds.flatMap((id) => (this.games.has(id) ? [[id, this.games.get(id)!.version] as const] : [])));
  }

  async tournamentGameStatuses(tournamentId: string, gameIds: readonly string[]): Promise<Map<string, GameStatus>> {
    const ids = new Set(gameIds);
    return new Map([...this.games.values()].filter((g) => ids.has(g.id) || (g.tournamentId === tournamentId && g.status !== 'FINISHED')).map((g) => [g.id, g.status]));
  }

  async watch(watcher: AppendWatcher): Promise<() => Promise<void>> {
    const remove = this.watchers.add(watcher);
    return async () => {
      remove();
    };
  }

  async seatByTokenHash(tokenHash: string): Promise<{ gameId: string; index: number } | null> {
    for (const g of this.games.values()) for (const s of g.seats) if (s.tokenHash === tokenHash) return { gameId: g.id, index: s.index };
    return null;
  }

  async list(filter: GameFilter, first: number, after?: GameCursor, options: { before?: GameCursor; fromOldest?: boolean } = {}): Promise<StoredGame[]> {
    const { before, fromOldest = false } = options;
    const newestFirst = (a: StoredGame, b: StoredGame) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1);
    const isAfter = (g: StoredGame) => !after || g.createdAt < after.createdAt || (g.createdAt.getTime() === after.createdAt.getTime() && g.id < after.id);
    const isBefore = (g: StoredGame) => !before || g.createdAt > before.createdAt || (g.createdAt.getTime() === before.createdAt.getTime() && g.id > before.id);
    const rows = [...this.games.values()].filter((g) => matches(g, filter) && isAfter(g) && isBefore(g)).sort(newestFirst);
    return fromOldest ? rows.slice(Math.max(0, rows.length - first)) : rows.slice(0, first);
  }

  async count(filter: GameFilter): Promise<number> {
    let n = 0;
    for (const g of this.games.values()) if (matches(g, filter)) n++;
    return n;
  }

  async ping(): Promise<void> {}
}

function matches(g: StoredGame, filter: GameFilter): boolean {
  return (
    (filter.kind === undefined || g.kind === filter.kind) &&
    (filter.status === undefined || g.status === filter.status) &&
    (filter.imported === undefined || g.imported === filter.imported) &&
    (filter.tournamentId === undefined || g.tournamentId === filter.tournamentId) &&
    (filter.inTournament === undefined || (g.tournamentId !== null) === filter.inTournament) &&
    (filter.round === undefined || g.round === filter.round)
  );
}
