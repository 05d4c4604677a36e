import { Controller, Get, Inject, Next, Param, Req, Res } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { CONFIG, type Config } from '../config/config.js';
import { BuiltPage, pageDir } from './pages.js';

/** Where `npm run build` writes GraphiQL. */
export const GRAPHIQL_DIR = pageDir('graphiql');

/**
 * GraphiQL at /graphiql, bundled from the npm packages at build time and served from here (no
 * CDN): on unless NODE_ENV=production, where GRAPHIQL=on turns it on. A browser opening
 * /graphql is sent to it (or told it is off, as JSON); every other GET /graphql goes on to Apollo.
 */
@Controller()
export class GraphiqlController {
  private readonly page = new BuiltPage(GRAPHIQL_DIR, 'GraphiQL');

  constructor(@Inject(CONFIG) private readonly config: Config) {}

  @Get('graphiql')
  index(@Req() req: Request, @Res() res: Response): void {
    if (this.on(res)) this.page.index(req, res);
  }

  @Get('graphiql/assets/:file')
  asset(@Param('file') file: string, @Req() req: Request, @Res() res: Response): void {
    if (this.on(res)) this.page.asset(file, req, res);
  }

  /** A browser's GET /graphql (HTML accepted before JSON, no query): GraphiQL, or a JSON refusal when it is off. */
  @Get('graphql')
  browser(@Req() req: Request, @Res() res: Response, @Next() next: NextFunction): void {
    if (req.query.query !== undefined || req.accepts(['application/json', 'text/html']) !== 'text/html') {
      next();
      return;
    }
    if (this.on(res)) res.redirect(302, '/graphiql');
  }

  /** Whether GraphiQL is on; when off, answers 404 saying so. */
  private on(res: Response): boolean {
    if (!this.config.graphiql) {
      res.status(404).json({
        error: { code: 'NOT_FOUND', message: 'GraphiQL is off (it is off under NODE_ENV=production unless GRAPHIQL=on); send GraphQL requests as POST /graphql with a JSON body' },
      });
    }
    return this.config.graphiql;
  }
}
