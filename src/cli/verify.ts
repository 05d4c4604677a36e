import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createRegistry } from '../games/index.js';
import { type Bundle, type Verdict, verifyBundle } from '../referee/core/audit.js';
import type { EngineRegistry } from '../referee/core/engine-registry.js';
import { type BundleLog, bundleEntry, bundleFinished, checkBundleLog, checkEntry, type LogVerdict } from '../referee/core/tlog/bundle-log.js';
import { parseVerifierKey, type VerifierKey } from '../referee/core/tlog/checkpoint.js';
import { type WitnessPolicy, witnessPolicy } from '../referee/core/tlog/cosignature.js';
import type { LogEntry } from '../referee/core/tlog/log-entry.js';
import { type TournamentBundle, type TournamentVerdict, verifyTournamentBundle } from '../referee/core/tournament/audit.js';

/**
 * Offline verifier: `npm run verify -- bundle.json [--log-key <name+id+key>] [--witness-key <key>]…
 * [--quorum N] [--log <service URL>]`.
 * A game bundle: recomputes the hash chain, every random outcome from the revealed seed and every
 * action through the engine. A tournament bundle: its chain and seed, every pairing, table and
 * bracket step, every lot, every result against its game's own bundle (each verified as above)
 * and the standings, which it prints (V10.4). Then the transparency log (docs/transparency.md):
 * the bundle's final head must be the entry its inclusion proof leads to, in a checkpoint signed
 * by the log key given (and cosigned by `--quorum` of the witnesses given: all, by default), or a
 * running stream's bundle the running head its proof leads to; with --log, the proof is asked of the log itself, which also shows a
 * bundle cut short and passed off as unfinished. No database; the first bad event is named. Exit
 * 0 when valid, 1 otherwise.
 */
type Verdicts = (Verdict | TournamentVerdict) & { log?: LogVerdict };
type Logged = (Bundle | TournamentBundle) & { log?: BundleLog };

/** The log's checks a verifier asks for: its key, and the witnesses' (c2sp.org/tlog-cosignature). */
export interface LogOptions {
  logKey?: string;
  witnessKeys?: string[];
  quorum?: string;
}

export function verifyFile(path: string, registry: EngineRegistry, options: LogOptions = {}): Verdicts {
  const read = readBundle(path);
  return 'bundle' in read ? verifyLogged(read.bundle, registry, options) : read.failed;
}

/** verifyFile, with the log's own proof for the bundle's stream (GET /api/log/inclusion at `logUrl`) in place of the bundle's. */
export async function verifyAgainstLog(path: string, registry: EngineRegistry, options: LogOptions & { logUrl: string }): Promise<Verdicts> {
  const read = readBundle(path);
  if (!('bundle' in read)) return read.failed;
  const entry = bundleEntry(read.bundle);
  const res = await fetch(new URL(`/api/log/inclusion?${entry.kind}=${encodeURIComponent(entry.id)}`, options.logUrl));
  const body = (await res.json().catch(() => null)) as (BundleLog & { entry: LogEntry }) | { error?: { code: string; message: string } } | null;
  const { log: _own, ...bundle } = read.bundle;
  const verdict = verifyLogged(res.status === 200 ? { ...bundle, log: body as BundleLog } : bundle, registry, options);
  if (!verdict.ok && verdict.log === undefined) return verdict;
  const fail = (problem: string): Verdicts => ({ ...verdict, ok: false, problem, summary: `${verdict.summary.split('; ')[0]}; NOT in the transparency log: ${problem}` });
  if (res.status === 200 && body && 'entry' in body) {
    const logged = body.entry;
    const key = options.logKey ? parseVerifierKey(options.logKey) : null;
    // The log's word counts only with its proof: its entry in a checkpoint (signed by the key given).
    if (!verdict.ok && (logged.seq !== entry.seq || logged.hash !== entry.hash) && checkEntry(logged, body, key).ok) {
      return fail(`the log holds this ${entry.kind}'s final head at seq ${logged.seq} (hash ${logged.hash.slice(0, 12)}…) but the bundle ends at seq ${entry.seq}: it was cut short or rewritten`);
    }
    return verdict;
  }
  const code = body && 'error' in body ? body.error?.code : undefined;
  if (code === 'NOT_FOUND' && bundleFinished(read.bundle)) return fail(`the log has no entry for this finished ${entry.kind}`);
  if (code === 'NOT_FOUND' || code === 'NOT_IN_LOG_YET') return verdict;
  return fail(`the log cannot be read at ${options.logUrl}: ${res.status}`);
}

function readBundle(path: string): { bundle: Logged } | { failed: Verdicts } {
  try {
    return { bundle: JSON.parse(readFileSync(path, 'utf8')) as Logged };
  } catch (err) {
    return {
      failed: {
        ok: false,
        eventsChecked: 0,
        drawsRecomputed: 0,
        badSeq: null,
        problem: `cannot read ${path}: ${(err as Error).message}`,
        fairnessChecked: false,
        summary: `FAILED: cannot read ${path}`,
      },
    };
  }
}

function verifyLogged(bundle: Logged, registry: EngineRegistry, { logKey, witnessKeys = [], quorum }: LogOptions): Verdicts {
  const verdict = bundle?.format === 'arbiter-tournament-bundle/1' ? verifyTournamentBundle(registry, bundle) : verifyBundle(registry, bundle as Bundle);
  if (!verdict.ok) return verdict;
  let key: VerifierKey | null;
  let witnesses: WitnessPolicy | null;
  try {
    key = logKey ? parseVerifierKey(logKey) : null;
    witnesses = witnessKeys.length > 0 || quorum !== undefined ? witnessPolicy(witnessKeys, quorum) : null;
  } catch (err) {
    return { ...verdict, ok: false, problem: `the log's keys: ${(err as Error).message}`, summary: `${verdict.summary}; the log's keys: ${(err as Error).message}` };
  }
  const log = checkBundleLog(bundle, key, witnesses);
  return { ...verdict, ok: log.ok, problem: log.problem, summary: `${verdict.summary}; ${log.text}`, log };
}

/** The standings as a verifier prints them: rank, participant, TP and each tie-break (exact). */
function standingsText(verdict: TournamentVerdict): string {
  if (!verdict.standings) return '';
  const header = ['rank', 'participant', 'tp', ...(verdict.standings[0]?.tieBreaks.map((b) => b.name) ?? [])];
  const rows = verdict.standings.map((r) => [String(r.rank), `${r.name} (${r.participantId})`, r.tp ?? '-', ...r.tieBreaks.map((b) => b.value ?? '-')]);
  return `${[header, ...rows].map((cells) => cells.join('\t')).join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({
    options: { 'log-key': { type: 'string' }, 'witness-key': { type: 'string', multiple: true }, quorum: { type: 'string' }, log: { type: 'string' } },
    allowPositionals: true,
  });
  const path = positionals[0];
  if (!path) {
    process.stderr.write(
      'usage: npm run verify -- <bundle.json> [--log-key <the log key, name+id+base64, from GET /api/log/key>] [--witness-key <a witness key>]… [--quorum <witnesses required, default all>] [--log <the service URL, to ask the log itself>]\n',
    );
    process.exit(2);
  }
  const options: LogOptions = { logKey: values['log-key'], witnessKeys: values['witness-key'], quorum: values.quorum };
  const verdict = values.log ? await verifyAgainstLog(path, createRegistry(), { ...options, logUrl: values.log }) : verifyFile(path, createRegistry(), options);
  const standings = 'standings' in verdict && verdict.ok ? standingsText(verdict) : '';
  const out = `${verdict.ok ? 'VALID' : 'INVALID'}: ${verdict.summary}\n${standings}`;
  process.stdout.write(out, () => process.exit(verdict.ok ? 0 : 1));
}
