import { Controller, Get, Header, Param, Query } from '@nestjs/common';
import { wholeNumber } from '../api/mapping.js';
import { Public } from '../api/scopes.js';
import { isGameId, isTournamentId, RefereeError } from '../referee/index.js';
import { TransparencyLog } from './transparency-log.js';

const once = (value: unknown, name: string): string | undefined => {
  if (value !== undefined && typeof value !== 'string') throw new RefereeError('INVALID_INPUT', `${name} is given once`);
  return value;
};
const size = (value: unknown, name: string) => {
  const v = once(value, name);
  return v === undefined ? undefined : wholeNumber(v, name);
};

/**
 * The transparency log over REST (docs/transparency.md), public: anyone may follow it. Signed
 * notes are served as text, as C2SP's tools read them; proofs as JSON with base64 hashes.
 */
@Controller('api/log')
export class LogController {
  constructor(private readonly log: TransparencyLog) {}

  @Public()
  @Get('checkpoint')
  @Header('content-type', 'text/plain; charset=utf-8')
  @Header('cache-control', 'no-cache')
  async latest(): Promise<string> {
    return (await this.log.checkpoint()).note;
  }

  @Public()
  @Get('checkpoints/:size')
  @Header('content-type', 'text/plain; charset=utf-8')
  async checkpointAt(@Param('size') at: string): Promise<string> {
    return (await this.log.checkpoint(wholeNumber(at, 'size'))).note;
  }

  @Public()
  @Get('key')
  @Header('content-type', 'text/plain; charset=utf-8')
  key(): string {
    return `${this.log.verifierKey()}\n`;
  }

  @Public()
  @Get('inclusion')
  async inclusion(@Query('game') game: unknown, @Query('tournament') tournament: unknown, @Query('index') index: unknown, @Query('size') treeSize: unknown) {
    const named = [once(game, 'game'), once(tournament, 'tournament'), once(index, 'index')].filter((v) => v !== undefined);
    if (named.length !== 1) throw new RefereeError('INVALID_INPUT', 'name one of game, tournament or index');
    const at = size(treeSize, 'size');
    if (game !== undefined) {
      if (!isGameId(game)) throw new RefereeError('NOT_FOUND', `no game with id ${String(game)}`);
      return this.log.inclusion({ kind: 'game', id: game }, at);
    }
    if (tournament !== undefined) {
      if (!isTournamentId(tournament)) throw new RefereeError('NOT_FOUND', `no tournament with id ${String(tournament)}`);
      return this.log.inclusion({ kind: 'tournament', id: tournament }, at);
    }
    return this.log.inclusion({ leafIndex: wholeNumber(index, 'index') }, at);
  }

  @Public()
  @Get('consistency')
  async consistency(@Query('from') from: unknown, @Query('to') to: unknown) {
    const [m, n] = [size(from, 'from'), size(to, 'to')];
    if (m === undefined || n === undefined) throw new RefereeError('INVALID_INPUT', 'give from and to, the two tree sizes');
    return { from: m, to: n, consistencyProof: await this.log.consistency(m, n) };
  }
}
