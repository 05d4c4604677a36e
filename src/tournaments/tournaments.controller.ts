import { Controller, Get, Header, Param, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RefereeService } from '../referee/application/referee.service.js';
import { TournamentService } from '../referee/application/tournament.service.js';
import { RefereeError } from '../referee/core/errors.js';
import { completedRounds } from '../referee/core/tournament/history.js';
import { crosstableView, scheduledGames, standingsCsv, standingsView, tournamentView } from './mapping.js';

/** REST for plain clients and files: a tournament, its standings (JSON or CSV), games, events and bundle. Errors are JSON: { error: { code, message } }. */
@Controller('api/tournaments')
export class TournamentsController {
  constructor(
    private readonly tournaments: TournamentService,
    private readonly referee: RefereeService,
  ) {}

  /** The tournament as the GraphQL `tournament` query has it, with its standings and crosstable after the completed rounds. */
  @Get(':id')
  async tournament(@Param('id') id: string) {
    const t = await this.tournaments.tournament(id);
    return { ...tournamentView(t), standings: standingsView(t, this.tournaments.standings(t)), crosstable: crosstableView(t) };
  }

  /** JSON `{ afterRound, rows }`, or CSV with `?format=csv` or `Accept: text/csv` (exact numbers such as 3/2). */
  @Get(':id/standings')
  async standings(@Param('id') id: string, @Query('afterRound') afterRound: unknown, @Query('format') format: unknown, @Req() req: Request, @Res({ passthrough: true }) res: Response) {
    if (format !== undefined && format !== 'json' && format !== 'csv') throw new RefereeError('INVALID_INPUT', 'format must be json or csv');
    const after = afterRound === undefined ? null : wholeNumber(afterRound, 'afterRound');
    const t = await this.tournaments.tournament(id);
    const rows = standingsView(t, this.tournaments.standings(t, after));
    res.setHeader('vary', 'Accept');
    if (format === 'csv' || (format === undefined && req.accepts(['application/json', 'text/csv']) === 'text/csv')) {
      res.setHeader('content-type', 'text/csv; charset=utf-8; header=present');
      return standingsCsv(rows, t.config.tieBreaks);
    }
    return { afterRound: after ?? completedRounds(t), rows };
  }

  /** Newline-delimited JSON, one scheduled game a line, round by round and board by board. */
  @Get(':id/games')
  async games(@Param('id') id: string, @Res() res: Response) {
    const t = await this.tournaments.tournament(id);
    const statuses = await this.gameStatuses(id);
    res.setHeader('content-type', 'application/x-ndjson');
    for (const game of scheduledGames(t, (gameId) => statuses.get(gameId) ?? null)) res.write(`${JSON.stringify(game)}\n`);
    res.end();
  }

  /** Newline-delimited JSON, one stored event a line, after `afterSeq`. */
  @Get(':id/events')
  async events(@Param('id') id: string, @Query('afterSeq') afterSeq: unknown, @Res() res: Response) {
    const events = await this.tournaments.events(id, afterSeq === undefined ? 0 : wholeNumber(afterSeq, 'afterSeq'));
    res.setHeader('content-type', 'application/x-ndjson');
    for (const e of events) res.write(`${JSON.stringify(e)}\n`);
    res.end();
  }

  /** Everything to verify the tournament offline (`npm run verify`): its stream and every game's bundle. */
  @Get(':id/bundle')
  @Header('content-type', 'application/json')
  async bundle(@Param('id') id: string, @Res({ passthrough: true }) res: Response) {
    const bundle = await this.tournaments.bundle(id);
    // Set once the bundle is made, so a refusal is not offered as a download; the id is a checked tournament id by then.
    res.setHeader('content-disposition', `attachment; filename="${id}.tournament.json"`);
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

/** A query parameter that must be a whole number. */
function wholeNumber(value: unknown, name: string): number {
  if (typeof value === 'string' && /^[0-9]{1,15}$/.test(value)) return Number(value);
  throw new RefereeError('INVALID_INPUT', `${name} must be a whole number`);
}
