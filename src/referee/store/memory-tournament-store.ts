import type { StoredEvent } from '../core/stream.js';
import { AppendConflict, type EventStore } from './event-store.js';
import { type TournamentExtras, type TournamentHead, type TournamentRow, TournamentStore } from './tournament-store.js';

/**
 * The tournament store in memory, for unit tests: the same contract as PostgreSQL's (an append at
 * a taken version conflicts and stores nothing, its games included), no durability. The games a
 * round schedules go to the games' store given; the players' notices and the other projections'
 * rows (the webhooks' messages) are not kept.
 */
export class MemoryTournamentStore extends TournamentStore {
  private readonly rows = new Map<string, TournamentRow>();
  private readonly streams = new Map<string, StoredEvent[]>();
  /** Participants by their token's hash. */
  private readonly participants = new Map<string, { tournamentId: string; participantId: string }>();

  constructor(private readonly games: Pick<EventStore, 'createGame' | 'versions'>) {
    super();
  }

  async create(row: Omit<TournamentRow, 'createdAt'>, events: StoredEvent[]): Promise<void> {
    if (this.rows.has(row.id)) throw new AppendConflict('the tournament exists');
    this.rows.set(row.id, { ...row, createdAt: new Date() });
    this.streams.set(row.id, [...events]);
  }

  async append(id: string, events: StoredEvent[], head: TournamentHead, extras: TournamentExtras = {}): Promise<void> {
    const games = extras.games ?? [];
    const taken = await this.games.versions(games.map((g) => g.row.id));
    // From here on nothing waits: the checks and the writes are one step, as a transaction is.
    const stream = this.streams.get(id);
    const row = this.rows.get(id);
    if (!stream || !row) throw new Error(`no tournament ${id}`);
    const registered = extras.participants ?? [];
    if (events[0].seq !== stream.length + 1) throw new AppendConflict('version taken');
    if (taken.size > 0) throw new AppendConflict('a scheduled game exists');
    if (registered.some((p) => this.participants.has(p.tokenHash))) throw new AppendConflict('the participant token exists');
    stream.push(...events);
    Object.assign(row, { version: head.version, headHash: head.hash, status: head.status });
    for (const p of registered) this.participants.set(p.tokenHash, { tournamentId: id, participantId: p.id });
    await Promise.all(games.map((g) => this.games.createGame(g.row, g.seats, g.events, g.consequences)));
  }

  async tournament(id: string): Promise<TournamentRow | null> {
    const row = this.rows.get(id);
    return row ? { ...row } : null;
  }

  async events(id: string, afterSeq = 0, untilSeq = Number.POSITIVE_INFINITY): Promise<StoredEvent[]> {
    return (this.streams.get(id) ?? []).filter((e) => e.seq > afterSeq && e.seq <= untilSeq);
  }

  async versions(ids: readonly string[]): Promise<Map<string, number>> {
    return new Map(ids.flatMap((id) => (this.rows.has(id) ? [[id, this.rows.get(id)!.version] as const] : [])));
  }

  async list(first: number, after?: { createdAt: Date; id: string }): Promise<TournamentRow[]> {
    const isAfter = (r: TournamentRow) => !after || r.createdAt < after.createdAt || (r.createdAt.getTime() === after.createdAt.getTime() && r.id < after.id);
    const newestFirst = (a: TournamentRow, b: TournamentRow) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1);
    return [...this.rows.values()].filter(isAfter).sort(newestFirst).slice(0, first);
  }

  async unfinished(): Promise<string[]> {
    return [...this.rows.values()].filter((r) => r.status !== 'FINISHED').map((r) => r.id);
  }

  async participant(tokenHash: string): Promise<{ tournamentId: string; participantId: string } | null> {
    return this.participants.get(tokenHash) ?? null;
  }

  async organizedBy(organizerTokenHash: string): Promise<string | null> {
    return [...this.rows.values()].find((r) => r.organizerTokenHash === organizerTokenHash)?.id ?? null;
  }
}
