import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { holderOf } from '../api/caller.js';
import { wholeNumber } from '../api/mapping.js';
import { Needs } from '../api/scopes.js';
import { normaliseRuleset } from '../games/index.js';
import { ChallengeService, type ChallengeStatus, isObject, KeyDirectory, type LiveChallenge, RefereeError, RefereeService, type SeatChoice } from '../referee/index.js';
import { challengeDocument, toChallenge, toChallengeConnection } from './mapping.js';

const LISTS = ['incoming', 'outgoing', 'open'] as const;

/** A body member that is a string, or absent (null). */
function text(body: Record<string, unknown>, name: string): string | null {
  const v = body[name];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string') throw new RefereeError('INVALID_INPUT', `${name} must be a string`);
  return v;
}

/** REST for challenges (docs/players.md, "Challenges"), as GraphQL's: errors are JSON { error: { code, message } }. */
@Controller('api/challenges')
export class ChallengesController {
  constructor(
    private readonly challenges: ChallengeService,
    private readonly referee: RefereeService,
    private readonly keys: KeyDirectory,
  ) {}

  /** `?list=incoming|outgoing|open` (incoming by default), `status`, `first`, `after` as GraphQL's lists. */
  @Needs('read')
  @Get()
  async list(@Query('list') list: unknown, @Query('status') status: unknown, @Query('first') first: unknown, @Query('after') after: unknown, @Req() req: FastifyRequest) {
    const which = list ?? 'incoming';
    if (!LISTS.includes(which as (typeof LISTS)[number])) throw new RefereeError('INVALID_INPUT', `list must be one of ${LISTS.join(', ')}`);
    if ((status !== undefined && typeof status !== 'string') || (after !== undefined && typeof after !== 'string')) throw new RefereeError('INVALID_INPUT', 'status and after are given once');
    const page = await this.challenges.page(await holderOf(req, this.keys), which as (typeof LISTS)[number], {
      status: (status as ChallengeStatus | undefined) ?? null,
      first: first === undefined ? null : wholeNumber(first, 'first'),
      after: (after as string | undefined) || null,
    });
    const connection = await toChallengeConnection(this.challenges, this.referee, page);
    return { challenges: connection.edges.map((e) => ({ ...challengeDocument(e.node), cursor: e.cursor })), endCursor: page.endCursor, hasNextPage: page.hasNextPage };
  }

  /** A challenge, as GraphQL's issueChallenge takes it (`seat`: FIRST, SECOND or RANDOM; `timeControl` in the engine's spelling, as createGame's JSON). */
  @Needs('play')
  @Post()
  @HttpCode(201)
  async issue(@Body() body: unknown, @Req() req: FastifyRequest) {
    if (!isObject(body)) throw new RefereeError('INVALID_INPUT', 'the body must be a JSON object');
    const kind = text(body, 'kind');
    if (kind === null) throw new RefereeError('INVALID_INPUT', 'kind is required');
    const seat = (text(body, 'seat') ?? 'RANDOM').toLowerCase();
    const expires = body.expiresInSeconds;
    if (expires !== undefined && expires !== null && !Number.isInteger(expires)) throw new RefereeError('INVALID_INPUT', 'expiresInSeconds must be a whole number');
    const challenge = await this.challenges.issue(await holderOf(req, this.keys), {
      to: text(body, 'to'),
      kind,
      ruleset: normaliseRuleset(kind, body.ruleset),
      timeControl: body.timeControl,
      seat: seat as SeatChoice,
      message: text(body, 'message'),
      expiresInSeconds: (expires as number | null | undefined) ?? null,
      rated: body.rated === true,
    });
    return this.document(challenge);
  }

  /** Accepts: the challenge, ACCEPTED, with `gameId`, the game it created (GET /api/games/:id reads it). */
  @Needs('play')
  @Post(':id/accept')
  @HttpCode(200)
  async accept(@Param('id') id: string, @Req() req: FastifyRequest) {
    return this.document((await this.challenges.accept(await holderOf(req, this.keys), id)).challenge);
  }

  @Needs('play')
  @Post(':id/decline')
  @HttpCode(200)
  async decline(@Param('id') id: string, @Body() body: unknown, @Req() req: FastifyRequest) {
    const reason = isObject(body) ? text(body, 'reason') : null;
    return this.document(await this.challenges.decline(await holderOf(req, this.keys), id, reason));
  }

  @Needs('play')
  @Post(':id/cancel')
  @HttpCode(200)
  async cancel(@Param('id') id: string, @Req() req: FastifyRequest) {
    return this.document(await this.challenges.cancel(await holderOf(req, this.keys), id));
  }

  private async document(c: LiveChallenge) {
    return challengeDocument(await toChallenge(this.challenges, this.referee, c));
  }
}
