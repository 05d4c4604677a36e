import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Controller, Get, Header } from '@nestjs/common';
import { openApiDocument } from './openapi/index.js';
import { projectRoot } from '../config/project-root.js';
import { EngineRegistry } from '../referee/index.js';
import { Public } from './scopes.js';

/** The project's package.json (from src/ under ts-jest or dist/src/ when built): the API version is the service's. */
function packageVersion(from: string): string {
  const pkg = JSON.parse(readFileSync(resolve(projectRoot(from), 'package.json'), 'utf8')) as { version?: unknown };
  return String(pkg.version ?? '0.0.0');
}

/** GET /api/openapi.json: the OpenAPI 3.1 description of the REST and operations endpoints. */
@Controller('api')
export class OpenApiController {
  private readonly document: string;

  constructor(registry: EngineRegistry) {
    this.document = JSON.stringify(openApiDocument(packageVersion(import.meta.dirname), registry.kinds()));
  }

  @Public()
  @Get('openapi.json')
  @Header('content-type', 'application/json; charset=utf-8')
  @Header('cache-control', 'no-cache')
  openapi(): string {
    return this.document;
  }
}
