import { Buffer } from 'buffer';
import type { Bundle } from '../../../src/referee/core/audit.js';
import { type BundleLog, bundleEntry, bundleFinished, checkEntry } from '../../../src/referee/core/tlog/bundle-log.js';
import { parseCheckpoint, parseVerifierKey, signaturesBy, type VerifierKey } from '../../../src/referee/core/tlog/checkpoint.js';
import type { TournamentBundle } from '../../../src/referee/core/tournament/audit.js';
import { type Ed25519Verifier, verifyEd25519 } from './ed25519.js';

/** The key the page trusted: its name and id, as the service publishes them at /api/log/key. */
export interface TrustedKey {
  name: string;
  keyId: string;
}

/** Where a finished stream stands in the transparency log, as the page found it. */
export type LogStatus =
  | { state: 'included'; checkpoint: number; leafIndex: number; origin: string; key: TrustedKey; by: Ed25519Verifier }
  | { state: 'waiting'; key: TrustedKey | null }
  | { state: 'failed'; problem: string; key: TrustedKey | null };

/**
 * Issue 31, item 5, in the browser: the bundle's final head (its last event and result, recomputed
 * from the bundle as `npm run verify` does) must be the entry its inclusion proof leads to, in a
 * checkpoint whose Ed25519 signature verifies with the key the service publishes. The proof and
 * the entry are the referee core's own (src/referee/core/tlog); the signature is WebCrypto's.
 * A finished stream without a proof is waiting for the log's next checkpoint.
 */
export async function logStatus(bundle: (Bundle | TournamentBundle) & { log?: BundleLog }): Promise<LogStatus> {
  let key: VerifierKey;
  try {
    const res = await fetch('/api/log/key');
    if (!res.ok) return { state: 'failed', problem: `the log's key could not be fetched (HTTP ${res.status})`, key: null };
    key = parseVerifierKey(await res.text());
  } catch (err) {
    return { state: 'failed', problem: `the log's key: ${(err as Error).message}`, key: null };
  }
  const trusted = { name: key.name, keyId: key.keyId.toString('hex') };
  const failed = (problem: string): LogStatus => ({ state: 'failed', problem, key: trusted });
  try {
    const log = bundle.log;
    if (!log) return bundleFinished(bundle) ? { state: 'waiting', key: trusted } : failed('the bundle is not of a finished game or tournament');
    const checkpoint = parseCheckpoint(log.checkpoint);
    const signed = await Promise.all(signaturesBy(checkpoint, key).map((s) => verifyEd25519(key.publicKey, s, Buffer.from(checkpoint.body))));
    if (!signed.some((s) => s.ok)) return failed(`the checkpoint (size ${checkpoint.size}) carries no valid signature by the log's key ${key.name} (id ${trusted.keyId})`);
    const proof = checkEntry(bundleEntry(bundle), log, null);
    if (!proof.ok) return failed(proof.problem ?? 'the inclusion proof does not verify');
    return { state: 'included', checkpoint: checkpoint.size, leafIndex: log.leafIndex, origin: checkpoint.origin, key: trusted, by: signed[0].by };
  } catch (err) {
    return failed((err as Error).message);
  }
}

/** A finished game's place in the log, from its public bundle. */
export async function gameLogStatus(id: string): Promise<LogStatus> {
  const res = await fetch(`/api/games/${encodeURIComponent(id)}/bundle`).catch(() => null);
  if (!res?.ok) return { state: 'failed', problem: `the game's bundle could not be fetched (${res ? `HTTP ${res.status}` : 'no answer'})`, key: null };
  return logStatus((await res.json()) as Bundle & { log?: BundleLog });
}
