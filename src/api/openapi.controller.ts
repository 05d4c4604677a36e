import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Controller, Get, Header } from '@nestjs/common';
import type { OpenApiDocument } from './openapi/builders.js';
import { openApiDocument } from './openapi/index.js';
import { projectRoot } from '../config/project-root.js';
import { EngineRegistry } from '../referee/index.js';
import { Public } from './scopes.js';

/** The project's package.json (from src/ under ts-jest or dist/src/ when built): the API version is the service's. */
function packageVersion(from: string): string {
  const pkg = JSON.parse(readFileSync(resolve(projectRoot(from), 'package.json'), 'utf8')) as { version?: unknown };
  return String(pkg.version ?? '0.0.0');
}

/** The document a service playing `kinds` serves: scripts/print-schema.ts commits it as openapi.json, over the games shipped. */
export function servedOpenApiDocument(kinds: readonly string[]): OpenApiDocument {
  return openApiDocument(packageVersion(import.meta.dirname), kinds);
}

/** GET /api/openapi.json: the OpenAPI 3.1 description of the REST and operations endpoints. */
@Controller('api')
export class OpenApiController {
  private readonly document: string;

  constructor(registry: EngineRegistry) {
    this.document = JSON.stringify(servedOpenApiDocument(registry.kinds()));
  }

  @Public()
  @Get('openapi.json')
  @Header('content-type', 'application/json; charset=utf-8')
  @Header('cache-control', 'no-cache')
  openapi(): string {
    return this.document;
  }
}
