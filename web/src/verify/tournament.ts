import { EngineRegistry } from '../../../src/referee/core/engine-registry.js';
import type { BundleLog } from '../../../src/referee/core/tlog/bundle-log.js';
import { type TournamentBundle, type TournamentVerdict, verifyTournamentBundle } from '../../../src/referee/core/tournament/audit.js';
import { type LogStatus, logStatus } from './log.js';

/**
 * The shipped games' engines, as the service registers them (src/games/index.ts), without their
 * API layers: each a chunk of its own, so a tournament's page loads only its kind's engine.
 */
const ENGINES: Record<string, () => Promise<Parameters<typeof EngineRegistry.of>[0][number]>> = {
  backgammon: async () => (await import('../../../src/games/backgammon/engine/index.js')).backgammonEngine,
  'chicken-foot': async () => (await import('../../../src/games/chicken-foot/engine/index.js')).chickenFootEngine,
  cerke: async () => (await import('../../../src/games/cerke/engine/index.js')).cerkeEngine,
};

/**
 * V10.3 in the browser: the tournament's public bundle checked by the project's own verifier, so a
 * viewer trusts the page's arithmetic, not the server's word; and a finished tournament's place
 * in the transparency log (log.ts), from the same bundle. A bundle that cannot be read is "not
 * verified" with the reason, never an error page.
 */
export async function verifyTournament(id: string, kind: string): Promise<{ verdict: TournamentVerdict; log: LogStatus | null }> {
  try {
    const engine = ENGINES[kind];
    if (!engine) return unreadable(`this page has no engine for ${kind} games`);
    const registry = EngineRegistry.of([await engine()]);
    const res = await fetch(`/api/tournaments/${encodeURIComponent(id)}/bundle`);
    if (!res.ok) return unreadable(`the bundle could not be fetched (HTTP ${res.status})`);
    const bundle = (await res.json()) as TournamentBundle & { log?: BundleLog };
    return { verdict: verifyTournamentBundle(registry, bundle), log: bundle.tournament?.status === 'FINISHED' ? await logStatus(bundle) : null };
  } catch (err) {
    return unreadable((err as Error).message);
  }
}

const unreadable = (problem: string): { verdict: TournamentVerdict; log: null } => ({
  verdict: { ok: false, eventsChecked: 0, gamesChecked: 0, badSeq: null, problem, summary: `FAILED: ${problem}`, standings: null },
  log: null,
});
