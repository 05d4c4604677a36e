import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** The folder holding the project's package.json, found upwards from `from` (src/ or dist/src/ alike). */
export function projectRoot(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) if (existsSync(resolve(dir, 'package.json'))) return dir;
  throw new Error(`no package.json above ${from}`);
}
