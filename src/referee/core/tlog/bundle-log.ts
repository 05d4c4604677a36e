import { type Bundle } from '../audit.js';
import type { TournamentBundle } from '../tournament/audit.js';
import { parseCheckpoint, signedBy, type VerifierKey, verifierKeyText } from './checkpoint.js';
import { checkCosignatures, type WitnessPolicy } from './cosignature.js';
import { entryLeafHash, type LogEntry, runningKind, streamOf, tournamentResult } from './log-entry.js';
import { verifyInclusion } from './merkle.js';

/** What a bundle carries of the transparency log: its entry's leaf, the audit path (base64) and the signed checkpoint it leads to. */
export interface BundleLog {
  /** A running stream's bundle: the seq of the head the log holds (the entry is that event's head); absent for the final head. */
  seq?: number;
  leafIndex: number;
  treeSize: number;
  inclusionProof: string[];
  checkpoint: string;
}

export interface LogVerdict {
  ok: boolean;
  problem: string | null;
  /** What was checked, in a sentence. */
  text: string;
}

/** Does the bundle say its stream is over (so the log must hold its final head)? */
export const bundleFinished = (bundle: Bundle | TournamentBundle): boolean =>
  bundle.format === 'arbiter-tournament-bundle/1' ? bundle.tournament.status === 'FINISHED' : bundle.game.status === 'FINISHED' || bundle.game.status === 'ABORTED';

/** The entry the log must hold for this bundle: its stream's final head and result, as the bundle has them. */
export function bundleEntry(bundle: Bundle | TournamentBundle): LogEntry {
  const last = bundle.events.at(-1);
  const head = { seq: last?.seq ?? 0, hash: last?.hash ?? '' };
  return bundle.format === 'arbiter-tournament-bundle/1'
    ? { kind: 'tournament', id: bundle.tournament.id, ...head, result: tournamentResult(bundle.events) }
    : { kind: 'game', id: bundle.game.id, ...head, result: bundle.game.result ?? null };
}

const failed = (problem: string): LogVerdict => ({ ok: false, problem, text: `NOT in the transparency log: ${problem}` });

/**
 * Checks that the log holds the bundle's final head: the entry recomputed from the bundle, its
 * inclusion proof (RFC 9162 §2.1.3.2) up to the checkpoint's root, and the checkpoint's signature
 * by `key`. Without a key only the proof is checked (the checkpoint could be anyone's), and a
 * bundle without a proof passes unchecked; with one, a finished stream's missing proof fails. An
 * unfinished stream may carry its latest running head's proof: the bundle's event at that seq
 * must be the logged head (a later bundle passes through it); only the log itself can show that
 * it did finish (verify --log). `witnesses`: each checkpoint must also carry their cosignatures.
 * A tournament's bundle is in the log when it is and every game bundle nested in it is too, each
 * by its own proof and checkpoint: the first game that is not is named.
 */
export function checkBundleLog(bundle: Logged<Bundle | TournamentBundle>, key: VerifierKey | null, witnesses: WitnessPolicy | null = null): LogVerdict {
  const own = checkOwnLog(bundle, key, witnesses);
  if (!own.ok || bundle.format !== 'arbiter-tournament-bundle/1') return own;
  const games = bundle.games as Logged<Bundle>[];
  for (const game of games) {
    const verdict = checkOwnLog(game, key, witnesses);
    if (!verdict.ok) return failed(`its game ${game.game?.id}: ${verdict.problem}`);
  }
  const proven = games.filter((g) => g.log).length;
  return games.length ? { ...own, text: `${own.text}; ${proven} of its ${games.length} games by their own proofs too` } : own;
}

type Logged<B> = B & { log?: BundleLog };

/** The bundle's own stream in the log (not the games nested in a tournament's). */
function checkOwnLog(bundle: Logged<Bundle | TournamentBundle>, key: VerifierKey | null, witnesses: WitnessPolicy | null): LogVerdict {
  const entry = bundleEntry(bundle);
  const log = bundle.log;
  if (log && log.seq !== undefined) {
    const event = bundle.events.find((e) => e.seq === log.seq);
    if (bundleFinished(bundle)) return failed(`the bundle of a finished ${entry.kind} carries a running head's proof, not its final head's`);
    if (!event) return failed(`the bundle has no event at seq ${log.seq}, the running head its proof is of`);
    return checkEntry({ kind: runningKind(entry.kind as 'game' | 'tournament'), id: entry.id, seq: event.seq, hash: event.hash, result: null }, log, key, witnesses);
  }
  if (!log) {
    if (!bundleFinished(bundle)) return { ok: true, problem: null, text: `not finished, so not in the transparency log (ask the log itself whether this ${entry.kind} finished: --log)` };
    if (!key) return { ok: true, problem: null, text: 'not checked against the transparency log (the bundle carries no proof)' };
    return failed(`the bundle carries no proof that the ${entry.kind}'s final head is in the log (cut short or rewritten, or finished after the latest checkpoint: fetch it again after the next one)`);
  }
  return checkEntry(entry, log, key, witnesses);
}

/** Checks that `log` proves `entry` is in a checkpoint (signed by `key`, and cosigned by the witnesses, when given). */
export function checkEntry(entry: LogEntry, log: BundleLog, key: VerifierKey | null, witnesses: WitnessPolicy | null = null): LogVerdict {
  let checkpoint: ReturnType<typeof parseCheckpoint>;
  try {
    checkpoint = parseCheckpoint(log.checkpoint);
  } catch (err) {
    return failed(`its checkpoint is malformed: ${(err as Error).message}`);
  }
  if (key && !signedBy(checkpoint, key)) return failed(`its checkpoint (size ${checkpoint.size}) is not signed by the log key ${verifierKeyText(key)}`);
  const cosigned = witnesses ? checkCosignatures(checkpoint, witnesses) : null;
  if (cosigned?.problem) return failed(cosigned.problem);
  const { stream, running } = streamOf(entry.kind);
  const head = running ? 'running head' : 'final head';
  const proof = Array.isArray(log.inclusionProof) ? log.inclusionProof.map((h) => Buffer.from(String(h), 'base64')) : [];
  if (log.treeSize !== checkpoint.size || !verifyInclusion(log.leafIndex, checkpoint.size, entryLeafHash(entry), proof, checkpoint.root)) {
    return failed(
      `the log's checkpoint ${checkpoint.size} does not hold this ${stream}'s ${head} (seq ${entry.seq}, hash ${entry.hash.slice(0, 12)}…) at leaf ${log.leafIndex}: ` +
        'the history was rewritten or cut short after it was logged, or the proof is false',
    );
  }
  const signer = key ? `signed by ${key.name}` : 'signature not checked: give --log-key';
  const witnessed = cosigned ? `; cosigned by ${cosigned.cosigners.length > 0 ? cosigned.cosigners.join(', ') : 'no witness'} (${witnesses?.quorum} required)` : '';
  const what = running ? `its running head at seq ${entry.seq} is ` : '';
  return { ok: true, problem: null, text: `${what}in the transparency log at leaf ${log.leafIndex} of checkpoint ${checkpoint.size} (${checkpoint.origin}; ${signer}${witnessed})` };
}
