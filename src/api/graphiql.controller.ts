import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import accepts from 'accepts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONFIG, type Config } from '../config/config.js';
import { isGraphqlPath, pathOf } from './caller.js';
import { BuiltPage, pageDir } from './pages.js';
import { Public } from './scopes.js';

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

  @Public()
  @Get('graphiql')
  index(@Req() req: FastifyRequest, @Res() reply: FastifyReply): void {
    if (graphiqlOn(this.config, reply)) this.page.index(req, reply);
  }

  @Public()
  @Get('graphiql/assets/:file')
  asset(@Param('file') file: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply): void {
    if (graphiqlOn(this.config, reply)) this.page.asset(file, req, reply);
  }
}

/**
 * An `onRequest` hook (Apollo has the /graphql route): a browser's GET /graphql (HTML accepted
 * before JSON, no query) is sent to GraphiQL, or refused as JSON when it is off.
 */
export function browserOnGraphql(config: Config) {
  return async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    if (req.method !== 'GET' || !isGraphqlPath(pathOf(req))) return;
    if ((req.query as Record<string, unknown>).query !== undefined || accepts(req.raw).type(['application/json', 'text/html']) !== 'text/html') return;
    if (graphiqlOn(config, reply)) return reply.redirect('/graphiql', 302);
    return reply;
  };
}

/** Whether GraphiQL is on; when off, answers 404 saying so. */
function graphiqlOn(config: Config, reply: FastifyReply): boolean {
  if (!config.graphiql) {
    reply.code(404).send({
      error: { code: 'NOT_FOUND', message: 'GraphiQL is off (it is off under NODE_ENV=production unless GRAPHIQL=on); send GraphQL requests as POST /graphql with a JSON body' },
    });
  }
  return config.graphiql;
}
