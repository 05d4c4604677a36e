import { randomBytes } from 'node:crypto';
import { fail, ok, type Result } from '../../engines/kit/index.js';
import { BULK_LIMIT, type RegistrationExtras, type RowRefusal, rowRefusals } from '../core/tournament/bulk.js';
import type { TournamentCommand } from '../core/tournament/decider.js';
import { checkRating } from '../core/tournament/entry.js';
import { RefereeError } from '../core/errors.js';
import type { RefereeService } from './referee.service.js';
import type { RatingService } from './ratings.js';
import { checkName, newParticipantToken, tokenHash } from './seat-tokens.js';
import { seedingRating } from './tournament-seeding.js';
import type { LiveTournament, TournamentStep } from './tournament-streams.js';

/** One row of a bulk registration. */
export type BulkRow = { name?: string | null; rating?: number | null; player?: string | null } & RegistrationExtras;
/** A bulk registration's answer: every row registered, or the rows refused (nothing stored). */
export type BulkRegistration = { tournament: LiveTournament; registered: { row: number; participantId: string; participantToken: string }[] } | { refusals: RowRefusal[] };

type RegisterParticipants = Extract<TournamentCommand, { type: 'RegisterParticipants' }>;
type Entry = RegisterParticipants['entries'][number];

/** Many participants registered at once, all or none (bulk.ts): each row checked, then the rows decided as one command. */
export class BulkRegistrations {
  constructor(
    private readonly referee: RefereeService,
    /** The organizer's registration of one entry, decided on the tournament as the rows before it leave it. */
    private readonly step: (t: LiveTournament, entry: Entry) => Result<TournamentStep>,
    /** Players' current ratings, for the rows given none (tournament-seeding.ts). */
    private readonly ratings?: RatingService,
  ) {}

  /** Registers every row or none: the rows refused, each by its number, or the participants with their tokens. */
  async register(
    t: LiveTournament,
    rows: readonly BulkRow[],
    store: (command: RegisterParticipants, participants: TournamentStep['participants']) => Promise<LiveTournament>,
  ): Promise<BulkRegistration> {
    if (rows.length === 0 || rows.length > BULK_LIMIT) throw new RefereeError('INVALID_INPUT', `a bulk registration has 1 to ${BULK_LIMIT} rows`);
    const entries: Entry[] = [];
    const refusals: RowRefusal[] = [];
    for (const [i, row] of rows.entries()) {
      const checked = await this.bulkRow(t, row);
      if (checked.ok) entries.push(checked.value);
      else refusals.push({ row: i + 1, code: checked.error.code, message: checked.error.message });
    }
    if (refusals.length > 0) return { refusals };
    const decided = rowRefusals(t, entries, (state: LiveTournament, entry) => {
      const step = this.step(state, entry);
      return step.ok ? ok({ ...state, ...step.value.decision.state }) : step;
    });
    if (decided.length > 0) return { refusals: decided };
    const tokens = entries.map(() => newParticipantToken());
    const participants = entries.map((e, i) => ({ id: e.participantId, name: e.name, tokenHash: tokenHash(tokens[i]) }));
    const tournament = await store({ type: 'RegisterParticipants', entries }, participants);
    return { tournament, registered: entries.map((e, i) => ({ row: i + 1, participantId: e.participantId, participantToken: tokens[i] })) };
  }

  /** One bulk row as a registration, or its refusal: a name, a rating (typed, or its player's), a player that exists. */
  private async bulkRow(t: LiveTournament, row: BulkRow): Promise<Result<Entry>> {
    const name = checkName(row.name);
    if (!name) return fail('INVALID_INPUT', 'a participant needs a display name');
    const typed = checkRating(row.rating);
    if (!typed.ok) return typed;
    if (row.requestedByes !== undefined && row.requestedByes !== null && !Array.isArray(row.requestedByes)) return fail('INVALID_INPUT', 'requestedByes: a list of round numbers');
    if (row.player !== undefined && row.player !== null && typeof row.player !== 'string') return fail('INVALID_INPUT', 'player: a player id');
    if (row.player && !(await this.referee.playerCard(row.player))) return fail('NOT_FOUND', `no player with id ${row.player}`);
    const seeded = await seedingRating(this.ratings, t.config, row.player ?? null, row.rating);
    const participantId = `p-${randomBytes(9).toString('base64url')}`;
    return ok({ participantId, name, ...seeded, player: row.player ?? null, externalId: row.externalId ?? null, requestedByes: row.requestedByes ?? [] });
  }
}
