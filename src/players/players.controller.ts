import { Controller, Get, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { holderOf } from '../api/caller.js';
import { Public } from '../api/scopes.js';
import { KeyDirectory } from '../referee/index.js';
import { PlayerAccounts } from './player-accounts.js';

/** REST for a key's holder: who it is (manage keys over GraphQL). */
@Controller('api')
export class PlayersController {
  constructor(
    private readonly callers: PlayerAccounts,
    private readonly keys: KeyDirectory,
  ) {}

  /** The caller's player or app and its keys, as GraphQL `me` answers them. */
  @Get('me')
  @Public()
  async me(@Req() req: FastifyRequest) {
    return this.callers.of(await holderOf(req, this.keys));
  }
}
