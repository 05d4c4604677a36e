import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { EngineRegistry } from '../../src/referee/core/engine-registry.js';
import { type TournamentBundle, type TournamentVerdict, verifyTournamentBundle } from '../../src/referee/core/tournament/audit.js';
import type { TestApp } from './app.js';

/**
 * A tournament's bundle as the REST export gives it, verified offline twice: by the library and
 * by `npm run verify` (the built CLI, which needs `npm run build`). Answers the library's verdict;
 * the CLI's exit status must agree with it.
 */
export async function verifiedBundle(t: TestApp, id: string): Promise<TournamentVerdict> {
  const res = await request(t.app.getHttpServer()).get(`/api/tournaments/${id}/bundle`);
  expect(res.status).toBe(200);
  const verdict = verifyTournamentBundle(t.app.get(EngineRegistry), JSON.parse(res.text) as TournamentBundle);
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-bundle-'));
  try {
    const file = join(dir, `${id}.json`);
    writeFileSync(file, res.text);
    const cli = spawnSync(process.execPath, ['dist/src/cli/verify.js', file], { encoding: 'utf8' });
    expect(cli.status).toBe(verdict.ok ? 0 : 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return verdict;
}
