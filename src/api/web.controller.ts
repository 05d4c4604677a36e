import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BuiltPage, pageDir } from './pages.js';
import { Public } from './scopes.js';

/** Where `npm run build` writes the web page. */
export const WEB_DIR = pageDir('web');

/**
 * The web page (web/src/, bundled at build time): games, replays, verification and tournaments,
 * the signed-in player's games (`/me`) and where they start games (`/play`), drawn from the public API. Its routes all answer the same index.html; the page reads
 * the path itself, and a seat's token from the URL fragment, which browsers never send.
 */
@Controller()
export class WebController {
  private readonly page = new BuiltPage(WEB_DIR, 'the web page');

  @Public()
  @Get(['', 'games', 'games/:id', 'tournaments', 'tournaments/:id', 'me', 'play'])
  index(@Req() req: FastifyRequest, @Res() reply: FastifyReply): void {
    this.page.index(req, reply);
  }

  @Public()
  @Get('web/assets/:file')
  asset(@Param('file') file: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply): void {
    this.page.asset(file, req, reply);
  }
}
