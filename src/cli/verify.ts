import { readFileSync } from 'node:fs';
import { createRegistry } from '../games/index.js';
import { type Bundle, type Verdict, verifyBundle } from '../referee/core/audit.js';
import type { EngineRegistry } from '../referee/core/engine-registry.js';
import { type TournamentBundle, type TournamentVerdict, verifyTournamentBundle } from '../referee/core/tournament/audit.js';

/**
 * Offline verifier: `npm run verify -- bundle.json`. A game bundle: recomputes the hash chain,
 * every random outcome from the revealed seed and every action through the engine. A tournament
 * bundle: its chain and seed, every pairing, table and bracket step, every lot, every result
 * against its game's own bundle (each verified as above) and the standings, which it prints
 * (V10.4). No service, no database; the first bad event is named. Exit 0 when valid, 1 otherwise.
 */
export function verifyFile(path: string, registry: EngineRegistry): Verdict | TournamentVerdict {
  let bundle: Bundle | TournamentBundle;
  try {
    bundle = JSON.parse(readFileSync(path, 'utf8')) as Bundle | TournamentBundle;
  } catch (err) {
    return { ok: false, eventsChecked: 0, drawsRecomputed: 0, badSeq: null, problem: `cannot read ${path}: ${(err as Error).message}`, fairnessChecked: false, summary: `FAILED: cannot read ${path}` };
  }
  return bundle?.format === 'arbiter-tournament-bundle/1' ? verifyTournamentBundle(registry, bundle) : verifyBundle(registry, bundle as Bundle);
}

/** The standings as a verifier prints them: rank, participant, TP and each tie-break (exact). */
function standingsText(verdict: TournamentVerdict): string {
  if (!verdict.standings) return '';
  const header = ['rank', 'participant', 'tp', ...(verdict.standings[0]?.tieBreaks.map((b) => b.name) ?? [])];
  const rows = verdict.standings.map((r) => [String(r.rank), `${r.name} (${r.participantId})`, r.tp ?? '-', ...r.tieBreaks.map((b) => b.value ?? '-')]);
  return `${[header, ...rows].map((cells) => cells.join('\t')).join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const path = process.argv[2];
  if (!path) {
    process.stderr.write('usage: npm run verify -- <bundle.json>\n');
    process.exit(2);
  }
  const verdict = verifyFile(path, createRegistry());
  const standings = 'standings' in verdict && verdict.ok ? standingsText(verdict) : '';
  const out = `${verdict.ok ? 'VALID' : 'INVALID'}: ${verdict.summary}\n${standings}`;
  process.stdout.write(out, () => process.exit(verdict.ok ? 0 : 1));
}
