import { Controller, Get, Header, Param, Query, Req, Res } from '@nestjs/common';
import accepts from 'accepts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { wholeNumber } from '../api/mapping.js';
import { ndjsonResponse } from '../api/ndjson.js';
import { completedRounds, RefereeError, RefereeService, TournamentService } from '../referee/index.js';
import { crosstableView, scheduledGames, standingsCsv, standingsView, tournamentView } from './mapping.js';
import { Needs } from '../api/scopes.js';
import { TransparencyLog } from '../transparency/index.js';

/** REST for plain clients and files: a tournament, its standings (JSON or CSV), games, events and bundle. Errors are JSON: { error: { code, message } }. */
@Controller('api/tournaments')
export class TournamentsController {
  constructor(
    private readonly tournaments: TournamentService,
    private readonly referee: RefereeService,
    private readonly log: TransparencyLog,
  ) {}

  /** The tournament as the GraphQL `tournament` query has it, with its standings and crosstable after the completed rounds. */
  @Needs('read')
  @Get(':id')
  async tournament(@Param('id') id: string) {
    const t = await this.tournaments.tournament(id);
    return { ...tournamentView(t), standings: standingsView(t, this.tournaments.standings(t)), crosstable: crosstableView(t) };
  }

  /** JSON `{ afterRound, rows }`, or CSV with `?format=csv` or `Accept: text/csv` (exact numbers such as 3/2). */
  @Needs('read')
  @Get(':id/standings')
  async standings(@Param('id') id: string, @Query('afterRound') afterRound: unknown, @Query('format') format: unknown, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    if (format !== undefined && format !== 'json' && format !== 'csv') throw new RefereeError('INVALID_INPUT', 'format must be json or csv');
    const after = afterRound === undefined ? null : wholeNumber(afterRound, 'afterRound');
    const t = await this.tournaments.tournament(id);
    const rows = standingsView(t, this.tournaments.standings(t, after));
    reply.header('vary', 'Accept');
    if (format === 'csv' || (format === undefined && accepts(req.raw).type(['application/json', 'text/csv']) === 'text/csv')) {
      reply.header('content-type', 'text/csv; charset=utf-8; header=present');
      return standingsCsv(rows, t.config.tieBreaks);
    }
    return { afterRound: after ?? completedRounds(t), rows };
  }

  /** Newline-delimited JSON, one scheduled game a line, round by round and board by board. */
  @Needs('read')
  @Get(':id/games')
  async games(@Param('id') id: string, @Res() reply: FastifyReply) {
    const t = await this.tournaments.tournament(id);
    const statuses = await this.gameStatuses(id);
    const res = ndjsonResponse(reply);
    for (const game of scheduledGames(t, (gameId) => statuses.get(gameId) ?? null)) res.write(`${JSON.stringify(game)}\n`);
    res.end();
  }

  /** Newline-delimited JSON, one stored event a line, after `afterSeq`. */
  @Needs('read')
  @Get(':id/events')
  async events(@Param('id') id: string, @Query('afterSeq') afterSeq: unknown, @Res() reply: FastifyReply) {
    const events = await this.tournaments.events(id, afterSeq === undefined ? 0 : wholeNumber(afterSeq, 'afterSeq'));
    const res = ndjsonResponse(reply);
    for (const e of events) res.write(`${JSON.stringify(e)}\n`);
    res.end();
  }

  /** Everything to verify the tournament offline (`npm run verify`): its stream and every game's bundle. */
  @Needs('read')
  @Get(':id/bundle')
  @Header('content-type', 'application/json')
  async bundle(@Param('id') id: string, @Res({ passthrough: true }) reply: FastifyReply) {
    const made = await this.tournaments.bundle(id);
    // The tournament and each of its finished games carry their entries' places in the transparency log.
    const games = await Promise.all(made.games.map((g) => this.log.withProof('game', g.game.id, g)));
    const bundle = await this.log.withProof('tournament', id, { ...made, games });
    // Set once the bundle is made, so a refusal is not offered as a download; the id is a checked tournament id by then.
    reply.header('content-disposition', `attachment; filename="${id}.tournament.json"`);
    return bundle;
  }

  /** Each of the tournament's games' status, from the games list (pages of 100) rather than loading every game. */
  private async gameStatuses(tournamentId: string): Promise<Map<string, string>> {
    const statuses = new Map<string, string>();
    for (let after: string | null = null; ; ) {
      const page = await this.referee.list({ tournamentId }, { first: 100, after });
      for (const g of page.games) statuses.set(g.id, g.status);
      if (!page.hasNextPage) return statuses;
      after = page.endCursor;
    }
  }
}
