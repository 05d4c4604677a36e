import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseCheckpoint, parseVerifierKey, type SignedCheckpoint, signedBy, type VerifierKey } from '../referee/core/tlog/checkpoint.js';
import { checkCosignatures, type WitnessPolicy, witnessPolicy } from '../referee/core/tlog/cosignature.js';
import { verifyConsistency } from '../referee/core/tlog/merkle.js';

/**
 * The transparency log's monitor (docs/transparency.md): `npm run monitor -- --log <service URL>
 * --key <log key> [--witness-key <key>]… [--quorum N] [--state monitor.json] [--interval 10] [--once]`.
 * It takes a checkpoint only signed by the key and, when witness keys are given, cosigned by
 * `--quorum` of them (all, by default): a split view then needs the witnesses' collusion. It keeps the last signed
 * checkpoint it accepted (the state file), and takes each new one only with a consistency proof
 * from it (RFC 9162 §2.1.4): a log that shrank, signed two roots for one size, or cannot prove
 * that its new tree extends the old one was rewritten or forked, and the two signed checkpoints
 * are the evidence (anyone can check both signatures). Exit 1 on a fork or a bad signature.
 */
export type Step =
  | { kind: 'first'; checkpoint: string }
  | { kind: 'unchanged'; checkpoint: string }
  | { kind: 'grown'; from: number; to: number; checkpoint: string }
  | { kind: 'fork'; reason: string; evidence: { earlier: string; later: string; consistencyProof?: string[] } }
  | { kind: 'refused'; reason: string };

/** GETs a path of the log's service as text; throws on a status other than 200. */
export type Get = (path: string) => Promise<string>;

export const httpGet =
  (base: string): Get =>
  async (path) => {
    const res = await fetch(new URL(path, base));
    const text = await res.text();
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${text.slice(0, 300)}`);
    return text;
  };

/** Takes the log's latest checkpoint and checks it against `last` (the note accepted before; null: none yet). */
export async function follow(get: Get, key: VerifierKey, last: string | null, witnesses: WitnessPolicy | null = null): Promise<Step> {
  const note = await get('/api/log/checkpoint');
  let next: SignedCheckpoint;
  try {
    next = parseCheckpoint(note);
  } catch (err) {
    return { kind: 'refused', reason: `the log's checkpoint is malformed: ${(err as Error).message}` };
  }
  if (!signedBy(next, key)) return { kind: 'refused', reason: `the log's checkpoint (size ${next.size}) is not signed by the key ${key.name}: not this log, or not its key` };
  const cosigned = witnesses ? checkCosignatures(next, witnesses) : null;
  if (cosigned?.problem) return { kind: 'refused', reason: `the log's ${cosigned.problem.slice('its '.length)}` };
  if (last === null) return { kind: 'first', checkpoint: note };
  const prev = parseCheckpoint(last);
  const fork = (reason: string, consistencyProof?: string[]): Step => ({ kind: 'fork', reason, evidence: { earlier: last, later: note, ...(consistencyProof ? { consistencyProof } : {}) } });
  if (next.origin !== prev.origin) return fork(`the log's origin changed from ${prev.origin} to ${next.origin}`);
  if (next.size < prev.size) return fork(`the log shrank from ${prev.size} to ${next.size} leaves: its history was rewritten`);
  if (next.size === prev.size) return next.root.equals(prev.root) ? { kind: 'unchanged', checkpoint: note } : fork(`the log signed two different roots for size ${next.size}: a split view`);
  if (prev.size === 0) return { kind: 'grown', from: 0, to: next.size, checkpoint: note };
  let proof: string[];
  try {
    proof = (JSON.parse(await get(`/api/log/consistency?from=${prev.size}&to=${next.size}`)) as { consistencyProof: string[] }).consistencyProof;
  } catch (err) {
    return fork(`the log gave no consistency proof from ${prev.size} to ${next.size}: ${(err as Error).message}`);
  }
  const hashes = Array.isArray(proof) ? proof.map((h) => Buffer.from(String(h), 'base64')) : [];
  if (!verifyConsistency(prev.size, next.size, hashes, prev.root, next.root)) {
    return fork(
      `the log's consistency proof from ${prev.size} to ${next.size} does not verify: the tree of ${next.size} does not extend the one of ${prev.size} (a rewritten or forked history)`,
      proof,
    );
  }
  return { kind: 'grown', from: prev.size, to: next.size, checkpoint: note };
}

/** The monitor's one line (or block, for a fork) about a step. */
export function report(step: Step): string {
  switch (step.kind) {
    case 'first':
      return `first checkpoint: size ${parseCheckpoint(step.checkpoint).size}, kept`;
    case 'unchanged':
      return 'no new checkpoint';
    case 'grown':
      return `consistent: the log grew from ${step.from} to ${step.to} leaves`;
    case 'refused':
      return `REFUSED: ${step.reason}`;
    case 'fork':
      return `FORK: ${step.reason}\nevidence, two checkpoints signed by the log:\n--- earlier\n${step.evidence.earlier}--- later\n${step.evidence.later}---`;
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      log: { type: 'string' },
      key: { type: 'string' },
      'witness-key': { type: 'string', multiple: true },
      quorum: { type: 'string' },
      state: { type: 'string', default: 'log-monitor.json' },
      interval: { type: 'string', default: '10' },
      once: { type: 'boolean' },
    },
  });
  if (!values.log || !values.key) {
    process.stderr.write(
      'usage: npm run monitor -- --log <service URL> --key <log key from GET /api/log/key> [--witness-key <a witness key>]… [--quorum <witnesses required, default all>] [--state log-monitor.json] [--interval 10] [--once]\n',
    );
    return 2;
  }
  let key: VerifierKey;
  let witnesses: WitnessPolicy | null;
  try {
    key = parseVerifierKey(values.key);
    const witnessKeys = values['witness-key'] ?? [];
    witnesses = witnessKeys.length > 0 || values.quorum !== undefined ? witnessPolicy(witnessKeys, values.quorum) : null;
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  const get = httpGet(values.log);
  const state = values.state;
  for (;;) {
    const last = existsSync(state) ? (JSON.parse(readFileSync(state, 'utf8')) as { checkpoint: string }).checkpoint : null;
    const step = await follow(get, key, last, witnesses).catch((err: Error): Step => ({ kind: 'refused', reason: `the log cannot be read: ${err.message}` }));
    process.stdout.write(`${new Date().toISOString()} ${report(step)}\n`);
    if (step.kind === 'fork') {
      writeFileSync(`${state}.fork.json`, `${JSON.stringify({ reason: step.reason, ...step.evidence }, null, 2)}\n`);
      return 1;
    }
    if (step.kind === 'first' || step.kind === 'grown') writeFileSync(state, `${JSON.stringify({ checkpoint: step.checkpoint })}\n`);
    if (values.once) return step.kind === 'refused' ? 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, Number(values.interval) * 1000));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main().then((code) => process.exit(code));
