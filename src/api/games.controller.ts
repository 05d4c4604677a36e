import { Body, Controller, Get, Header, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { gameDocument, type MoveResult, RefereeError, RefereeService, resultOf } from '../referee/index.js';
import { TransparencyLog } from '../transparency/index.js';
import { tokenOf } from './caller.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json.scalar.js';
import { gameIdOf, toMoveResult, wholeNumber } from './mapping.js';
import { followedNdjson, ndjsonResponse } from './ndjson.js';
import { gameEventStream } from './subscriptions.js';
import { Needs } from './scopes.js';
import { httpStatusOf } from './error.filter.js';

/** REST for plain clients and files. Errors are JSON: { error: { code, message } }. */
@Controller('api/games')
export class GamesController {
  constructor(
    private readonly referee: RefereeService,
    private readonly log: TransparencyLog,
  ) {}

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
    // A finished game's bundle carries its entry's place in the transparency log, once a checkpoint holds it.
    return this.log.withProof('game', id, await this.referee.bundle(id));
  }

  @Needs('read')
  @Get(':id/record')
  async record(@Param('id') id: string, @Res() reply: FastifyReply) {
    gameIdOf(id);
    const { contentType, text } = await this.referee.record(id);
    reply.header('content-type', `${contentType}; charset=utf-8`).send(text);
  }

  /**
   * A seat's commands, as GraphQL's mutations run them: `actions` (submitAction), `resign`
   * (resignGame), `abort` (abortGame). Accepted: the new version and the game as the seat now sees
   * it (as GET answers it). Refused: the code with its HTTP status, and the game's version when it
   * has one. A body without `moveId` gets a fresh one (no retry protection).
   */
  @Needs('play')
  @Post(':id/actions')
  @HttpCode(200)
  submitAction(@Param('id') id: string, @Body() body: unknown, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.seatCommand('actions', id, body, req, reply);
  }

  @Needs('play')
  @Post(':id/resign')
  @HttpCode(200)
  resignGame(@Param('id') id: string, @Body() body: unknown, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.seatCommand('resign', id, body, req, reply);
  }

  @Needs('play')
  @Post(':id/abort')
  @HttpCode(200)
  abortGame(@Param('id') id: string, @Body() body: unknown, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.seatCommand('abort', id, body, req, reply);
  }

  private async seatCommand(command: keyof typeof SEAT_COMMANDS, id: string, body: unknown, req: FastifyRequest, reply: FastifyReply) {
    gameIdOf(id);
    const { needsAction, run } = SEAT_COMMANDS[command];
    const answer = toMoveResult(await run(this.referee, id, tokenOf(req), commandBody(body, needsAction)));
    if ('code' in answer) {
      reply.code(httpStatusOf(answer.code));
      return { error: { code: answer.code, message: answer.message, currentVersion: answer.currentVersion } };
    }
    const { gameId, seat, version, status, events } = answer;
    return { gameId, seat, version, status, events, game: gameDocument(this.referee.answer(answer.snapshot, answer.viewer), { play: true }) };
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

interface CommandBody {
  action?: unknown;
  moveId: string;
  expectedVersion: number | null;
}

/** The seat commands over REST, by their path's last segment (src/api/rate-budgets.ts charges them as moves). */
const SEAT_COMMANDS: Record<'actions' | 'resign' | 'abort', { needsAction: boolean; run: (referee: RefereeService, id: string, token: string | null, body: CommandBody) => Promise<MoveResult> }> = {
  actions: { needsAction: true, run: (referee, id, token, body) => referee.act(id, token, body.moveId, body.action, body.expectedVersion) },
  resign: { needsAction: false, run: (referee, id, token, body) => referee.resign(id, token, body.moveId, body.expectedVersion) },
  abort: { needsAction: false, run: (referee, id, token) => referee.abort(id, token) },
};

const COMMAND_FIELDS = new Set(['action', 'moveId', 'expectedVersion']);

/** A seat command's body, checked as GraphQL checks its arguments: refused before anything runs. */
function commandBody(body: unknown, needsAction: boolean): CommandBody {
  const fields = body === undefined ? {} : body;
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) throw new RefereeError('INVALID_INPUT', 'the body must be a JSON object: { "action", "moveId", "expectedVersion" }');
  const { action, moveId, expectedVersion } = fields as Record<string, unknown>;
  const unknown = Object.keys(fields).find((k) => !COMMAND_FIELDS.has(k));
  if (unknown !== undefined) throw new RefereeError('INVALID_INPUT', `unknown field ${JSON.stringify(unknown.slice(0, 64))}: the body has action, moveId and expectedVersion`);
  if (needsAction && action === undefined)
    throw new RefereeError('INVALID_INPUT', `say the action, as legalActions lists it, in a JSON body (content-type: application/json): {"action": {"type": "roll"}}`);
  if (nestsDeeperThan(action, MAX_JSON_DEPTH)) throw new RefereeError('INVALID_INPUT', `the action nests deeper than ${MAX_JSON_DEPTH} levels`);
  if (moveId !== undefined && typeof moveId !== 'string') throw new RefereeError('INVALID_INPUT', 'moveId must be a string');
  if (expectedVersion !== undefined && expectedVersion !== null && !(Number.isInteger(expectedVersion) && (expectedVersion as number) >= 0 && (expectedVersion as number) <= 2_147_483_647))
    throw new RefereeError('INVALID_INPUT', 'expectedVersion must be a whole number from 0 to 2147483647');
  return { action, moveId: moveId ?? randomUUID(), expectedVersion: (expectedVersion as number | null | undefined) ?? null };
}
