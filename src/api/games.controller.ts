import { Body, Controller, Get, Header, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { gameDocument, RefereeError, RefereeService, resultOf } from '../referee/index.js';
import { tokenOf } from './caller.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json.scalar.js';
import { gameIdOf, wholeNumber } from './mapping.js';
import { followedNdjson, ndjsonResponse } from './ndjson.js';
import { gameEventStream } from './subscriptions.js';
import { Needs } from './scopes.js';

/** REST for plain clients and files. Errors are JSON: { error: { code, message } }. */
@Controller('api/games')
export class GamesController {
  constructor(private readonly referee: RefereeService) {}

  /**
   * `?atLeastVersion=N` answers the game at version N or later (read-your-writes across
   * instances). The ETag names the game's version and the caller's seat: `If-None-Match` with it
   * answers 304 while nothing changed.
   */
  @Needs('read')
  @Get(':id')
  async game(@Param('id') id: string, @Query('atLeastVersion') atLeastVersion: unknown, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    gameIdOf(id);
    const game = await this.referee.game(id, undefined, atLeastVersion === undefined ? null : wholeNumber(atLeastVersion, 'atLeastVersion'));
    const viewer = await this.referee.viewerOf(id, tokenOf(req));
    const etag = `"${game.version}-${viewer}"`;
    reply.header('etag', etag);
    reply.header('cache-control', 'no-cache');
    if (req.headers['if-none-match']?.split(/\s*,\s*/).includes(etag)) {
      reply.code(304);
      return;
    }
    return gameDocument(this.referee.answer(game, viewer), { play: true });
  }

  /**
   * Newline-delimited JSON, one event per line, as the caller may see them, after `afterSeq`.
   * With `follow=1` the answer stays open and streams each new event as it is stored, until the
   * game ends (its last line is `SeedRevealed`) or the client goes away; an empty line every
   * 15 s keeps idle proxies from closing it.
   */
  @Needs('read')
  @Get(':id/events')
  async events(@Param('id') id: string, @Query('afterSeq') afterSeq: unknown, @Query('follow') follow: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    gameIdOf(id);
    const after = afterSeq === undefined ? 0 : wholeNumber(afterSeq, 'afterSeq');
    if (follow !== undefined && follow !== '0' && follow !== '1' && follow !== 'true' && follow !== 'false') throw new RefereeError('INVALID_INPUT', 'follow must be 1 or 0');
    const viewer = await this.referee.viewerOf(id, tokenOf(req));
    const game = await this.referee.game(id);
    if (follow === '1' || follow === 'true') {
      await followedNdjson(reply, gameEventStream(this.referee, id, after, viewer));
      return;
    }
    const res = ndjsonResponse(reply);
    for (let last = after; last < game.version; ) {
      const page = await this.referee.events(id, last, viewer);
      if (page.length === 0) break;
      for (const e of page) res.write(`${JSON.stringify(e)}\n`);
      last = page.at(-1)!.seq;
    }
    res.end();
  }

  @Needs('read')
  @Get(':id/bundle')
  @Header('content-type', 'application/json')
  async bundle(@Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply) {
    // Checked first: the id is also written into a header, where a non-Latin-1 character would throw.
    gameIdOf(id);
    reply.header('content-disposition', `attachment; filename="arbiter-${id}.bundle.json"`);
    return this.referee.bundle(id);
  }

  @Needs('read')
  @Get(':id/record')
  async record(@Param('id') id: string, @Res() reply: FastifyReply) {
    gameIdOf(id);
    const { contentType, text } = await this.referee.record(id);
    reply.header('content-type', `${contentType}; charset=utf-8`).send(text);
  }

  /** Body: a record in the game's own format (text or JSON). */
  @Needs('create_games')
  @Post('import')
  async import(@Query('kind') kind: unknown, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    if (!kind || typeof kind !== 'string') throw new RefereeError('INVALID_INPUT', `say which game the record is: ?kind=${this.referee.registry.kinds().join('|')}`);
    // A JSON body is turned back into text below; refuse nesting no record has before that walk.
    if (nestsDeeperThan(body, MAX_JSON_DEPTH)) throw new RefereeError('INVALID_INPUT', `the record nests deeper than ${MAX_JSON_DEPTH} levels`);
    const text = typeof body === 'string' ? body : body && typeof body === 'object' && Object.keys(body).length > 0 ? JSON.stringify(body) : '';
    if (!text.trim()) throw new RefereeError('INVALID_INPUT', 'the request body must be the record');
    const { game, tokens } = await this.referee.importRecord(kind, text);
    reply.code(201);
    return { id: game.gameId, kind: game.kind, status: game.status, version: game.version, result: resultOf(game), tokens };
  }
}
