import { Body, Controller, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { addressOf, tokenOf } from '../api/caller.js';
import { callerLimits } from '../api/connection-limits.js';
import { Needs } from '../api/scopes.js';
import { CONFIG, type Config } from '../config/config.js';
import { type EnteredResult, RefereeError, TournamentService } from '../referee/index.js';
import { participantsFromCsv } from './participants-csv.js';
import { tournamentView } from './mapping.js';

const OUTCOMES = ['WIN_SEAT0', 'WIN_SEAT1', 'DRAW', 'FORFEIT_WIN_SEAT0', 'FORFEIT_WIN_SEAT1', 'DOUBLE_FORFEIT'];

/**
 * The organizer's commands over REST (the organizer's token as a Bearer token), for scripts and
 * spreadsheets: a result (as GraphQL's recordResult), participants in bulk as CSV or JSON (as
 * registerParticipants); and a participant's check-in with its own token (as checkIn). Errors are
 * JSON: { error: { code, message } }; refused rows add `rows`.
 */
@Controller('api/tournaments')
export class TournamentEntriesController {
  constructor(
    private readonly tournaments: TournamentService,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** Body: GraphQL's ResultInput as JSON, and an optional `commandId`. Answers the tournament as GET /api/tournaments/{id} has it (without standings). */
  @Needs('tournaments')
  @Post(':id/results')
  @HttpCode(200)
  async recordResult(@Param('id') id: string, @Body() body: unknown, @Req() req: FastifyRequest) {
    const { commandId, ...input } = resultBody(body);
    const allowance = callerLimits(this.config).creationAllowance(addressOf(req));
    return tournamentView(await this.tournaments.recordResult(id, tokenOf(req), input, commandId, allowance));
  }

  /**
   * Body: CSV (`text/csv`, docs/organizing.md) or JSON `{ participants: [...], commandId? }`. All or
   * none: 201 with every participant and its token, or 422 ROWS_REFUSED listing each refused row.
   */
  @Needs('tournaments')
  @Post(':id/participants')
  async registerMany(@Param('id') id: string, @Body() body: unknown, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    const read = typeof body === 'string' ? participantsFromCsv(body) : { rows: jsonRows(body), refusals: [] };
    const commandId = typeof body === 'object' && body !== null && typeof (body as { commandId?: unknown }).commandId === 'string' ? (body as { commandId: string }).commandId : null;
    const answer = read.refusals.length > 0 ? { refusals: read.refusals } : await this.tournaments.registerMany(id, tokenOf(req), read.rows, commandId);
    if ('refusals' in answer) {
      reply.code(422);
      return { error: { code: 'ROWS_REFUSED', message: `${answer.refusals.length} row(s) refused; nothing was registered`, rows: answer.refusals } };
    }
    reply.code(201);
    return { tournament: tournamentView(answer.tournament), participants: answer.registered };
  }

  /**
   * Body (optional): `{ participantId?, commandId? }`. A participant checks itself in with its own
   * token (P2.10); the organizer's token checks in the participant it names. Answers the tournament
   * as GET /api/tournaments/{id} has it (without standings).
   */
  @Needs('tournaments')
  @Post(':id/check-in')
  @HttpCode(200)
  async checkIn(@Param('id') id: string, @Body() body: unknown, @Req() req: FastifyRequest) {
    const token = tokenOf(req);
    const { participantId, commandId } = checkInBody(body);
    const who = participantId ?? (await this.tokensParticipant(id, token));
    return tournamentView(await this.tournaments.checkIn(id, token, who, commandId));
  }

  /** The participant a token is; the organizer names the one it checks in. */
  private async tokensParticipant(id: string, token: string | null): Promise<string> {
    const actor = await this.tournaments.actorOf(await this.tournaments.tournament(id), token);
    if (actor.role !== 'participant') throw new RefereeError('INVALID_INPUT', 'participantId: the organizer names the participant it checks in');
    return actor.participantId;
  }
}

function checkInBody(body: unknown): { participantId: string | null; commandId: string | null } {
  if (body === undefined || body === null || body === '') return { participantId: null, commandId: null };
  if (typeof body !== 'object' || Array.isArray(body)) throw new RefereeError('INVALID_INPUT', 'the body is a JSON object: { participantId?, commandId? }');
  const { participantId, commandId } = body as Record<string, unknown>;
  const text = (v: unknown, name: string) => {
    if (v === undefined || v === null) return null;
    if (typeof v !== 'string') throw new RefereeError('INVALID_INPUT', `${name} must be a text`);
    return v;
  };
  return { participantId: text(participantId, 'participantId'), commandId: text(commandId, 'commandId') };
}

function resultBody(body: unknown): EnteredResult & { commandId: string | null } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new RefereeError('INVALID_INPUT', 'the body is a JSON object: { round, board, gameId?, outcome?, gamePoints?, present?, record?, reason?, correction?, commandId? }');
  const b = body as Record<string, unknown>;
  const whole = (v: unknown, name: string) => {
    if (!Number.isInteger(v)) throw new RefereeError('INVALID_INPUT', `${name} must be a whole number`);
    return v as number;
  };
  const optional = <T>(v: unknown, ok: (x: unknown) => boolean, name: string, what: string): T | null => {
    if (v === undefined || v === null) return null;
    if (!ok(v)) throw new RefereeError('INVALID_INPUT', `${name} must be ${what}`);
    return v as T;
  };
  const text = (v: unknown) => typeof v === 'string';
  return {
    round: whole(b.round, 'round'),
    board: whole(b.board, 'board'),
    gameId: optional<string>(b.gameId, text, 'gameId', 'a game id'),
    outcome: optional<EnteredResult['outcome']>(b.outcome, (v) => OUTCOMES.includes(v as string), 'outcome', `one of ${OUTCOMES.join(', ')}`),
    gamePoints: optional<(string | null)[]>(
      b.gamePoints,
      (v) => Array.isArray(v) && v.every((x) => x === null || typeof x === 'string' || typeof x === 'number'),
      'gamePoints',
      'a list of numbers (or texts), null for an absent seat',
    ),
    present: optional<boolean[]>(b.present, (v) => Array.isArray(v) && v.every((x) => typeof x === 'boolean'), 'present', 'a list of true/false'),
    record: optional<string>(b.record, text, 'record', "the record's text"),
    reason: optional<string>(b.reason, text, 'reason', 'a text'),
    correction: optional<boolean>(b.correction, (v) => typeof v === 'boolean', 'correction', 'true or false'),
    commandId: optional<string>(b.commandId, text, 'commandId', 'a text'),
  };
}

function jsonRows(body: unknown) {
  const rows = (body as { participants?: unknown } | null)?.participants;
  if (!Array.isArray(rows) || rows.some((r) => typeof r !== 'object' || r === null))
    throw new RefereeError('INVALID_INPUT', 'send the participants as text/csv, or as JSON { "participants": [{ "name", "rating"?, "externalId"?, "requestedByes"?, "player"? }] }');
  return rows as { name?: string; rating?: number; externalId?: string; requestedByes?: number[]; player?: string }[];
}
