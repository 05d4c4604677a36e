import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type GameStatus, type PlayerGameRow, RefereeError, RefereeService } from '../referee/index.js';
import { tokenOf } from './caller.js';
import { wholeNumber } from './mapping.js';
import { followedNdjson } from './ndjson.js';
import { feedLine, feedStream, mapped } from './subscriptions.js';
import { Needs } from './scopes.js';

/** The inbox over REST: the games of the player whose key calls (GET /api/me is the players module's). */
@Controller('api/me/games')
export class MyGamesController {
  constructor(private readonly referee: RefereeService) {}

  /** `?toAct=true` the games waiting for the player, the most pressing deadline first; `status`, `kind`, `first`, `after` as GraphQL's myGames. */
  @Needs('read')
  @Get()
  async games(
    @Query('toAct') toAct: unknown,
    @Query('status') status: unknown,
    @Query('kind') kind: unknown,
    @Query('first') first: unknown,
    @Query('after') after: unknown,
    @Req() req: FastifyRequest,
  ) {
    if (toAct !== undefined && toAct !== 'true' && toAct !== 'false') throw new RefereeError('INVALID_INPUT', 'toAct must be true or false');
    for (const [name, v] of [
      ['status', status],
      ['kind', kind],
      ['after', after],
    ] as const)
      if (v !== undefined && typeof v !== 'string') throw new RefereeError('INVALID_INPUT', `${name} is given once`);
    const page = await this.referee.myGames(tokenOf(req), {
      toAct: toAct === undefined ? undefined : toAct === 'true',
      status: (status as GameStatus | undefined) || undefined,
      kind: (kind as string | undefined) || undefined,
      first: first === undefined ? null : wholeNumber(first, 'first'),
      after: (after as string | undefined) || null,
    });
    return { games: page.items.map(({ row, cursor }) => ({ ...gameItem(row), cursor })), endCursor: page.endCursor, hasNextPage: page.hasNextPage };
  }
}

const gameItem = (r: PlayerGameRow) => ({
  gameId: r.gameId,
  seat: r.seat,
  kind: r.kind,
  status: r.status,
  toAct: r.toAct,
  deadline: r.deadline?.toISOString() ?? null,
  updatedAt: r.updatedAt.toISOString(),
  version: r.version,
});

/** The player's stream: the notices meant for the player whose key calls, kept open. */
@Controller('api/me/stream')
export class MyStreamController {
  constructor(private readonly referee: RefereeService) {}

  /**
   * Newline-delimited JSON, one notice a line (`{ id, type, createdAt, data }`): those after the
   * notice `?after=` (or the `Last-Event-ID` header) names, from the player's first without
   * either, then each as it is stored, until the client goes away; an empty line every 15 s.
   */
  @Needs('read')
  @Get()
  async stream(@Query('after') after: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const from = after ?? req.headers['last-event-id'];
    if (from !== undefined && typeof from !== 'string') throw new RefereeError('INVALID_INPUT', 'after is given once');
    const reader = await this.referee.myFeed(tokenOf(req), from ?? null);
    await followedNdjson(reply, mapped(feedStream(reader), feedLine));
  }
}
