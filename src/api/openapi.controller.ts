import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Controller, Get, Header } from '@nestjs/common';
import { openApiDocument } from './openapi.js';

/** The project's package.json (from src/ under ts-jest or dist/src/ when built): the API version is the service's. */
function packageVersion(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    const file = resolve(dir, 'package.json');
    if (existsSync(file)) return String((JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version ?? '0.0.0');
  }
  return '0.0.0';
}

/** GET /api/openapi.json: the OpenAPI 3.1 description of the REST and operations endpoints. */
@Controller('api')
export class OpenApiController {
  private readonly document = JSON.stringify(openApiDocument(packageVersion(import.meta.dirname)));

  @Get('openapi.json')
  @Header('content-type', 'application/json; charset=utf-8')
  @Header('cache-control', 'no-cache')
  openapi(): string {
    return this.document;
  }
}
