import { type Checkpoint, parseCheckpoint, type SignedCheckpoint, type SigningKey, signedBy, type VerifierKey } from './checkpoint.js';
import { cosign } from './cosignature.js';
import { verifyConsistency } from './merkle.js';

/**
 * The C2SP tlog-witness `add-checkpoint` exchange (c2sp.org/tlog-witness): the log POSTs
 *
 *     old <size the witness last cosigned>\n<consistency proof, one base64 hash a line>\n\n<checkpoint>
 *
 * and the witness cosigns the checkpoint only if it is signed by the log's key and provably
 * extends the last one it cosigned for that origin; it answers 409 with its own size when the log
 * assumed another, and never cosigns two trees that do not extend one another.
 */
export const MAX_PROOF_LINES = 63;
export const TLOG_SIZE_TYPE = 'text/x.tlog.size';

export interface AddCheckpoint {
  oldSize: number;
  proof: Buffer[];
  checkpoint: string;
}

/** The request body of add-checkpoint. */
export const addCheckpointBody = ({ oldSize, proof, checkpoint }: AddCheckpoint): string => `old ${oldSize}\n${proof.map((h) => `${h.toString('base64')}\n`).join('')}\n${checkpoint}`;

/** Reads an add-checkpoint request body; throws saying what is malformed. */
export function parseAddCheckpoint(text: string): AddCheckpoint {
  const split = text.indexOf('\n\n');
  const m = split < 0 ? null : /^old (0|[1-9]\d*)\n$/.exec(text.slice(0, text.indexOf('\n') + 1));
  if (split < 0 || !m) throw new Error('the request reads "old <size>", the consistency proof (a hash a line), a blank line and the checkpoint');
  const lines = text
    .slice(text.indexOf('\n') + 1, split + 1)
    .split('\n')
    .slice(0, -1);
  if (lines.length > MAX_PROOF_LINES) throw new Error(`a consistency proof has at most ${MAX_PROOF_LINES} hashes`);
  const proof = lines.map((l) => {
    const h = Buffer.from(l, 'base64');
    if (h.length !== 32 || h.toString('base64') !== l) throw new Error(`not a base64 hash: ${JSON.stringify(l)}`);
    return h;
  });
  const oldSize = Number(m[1]);
  if (!Number.isSafeInteger(oldSize)) throw new Error('the old size is too large');
  return { oldSize, proof, checkpoint: text.slice(split + 2) };
}

/** The witness's answer: the HTTP status, its body, and (on 200) the checkpoint it must now keep for the origin. */
export type WitnessAnswer = { status: 200; body: string; origin: string; keep: string } | { status: 400 | 403 | 404 | 409 | 422; body: string; contentType?: string; evidence?: boolean };

/** What a witness knows: its cosigning key, the log keys it trusts by origin, and the last checkpoint it cosigned of each. */
export interface WitnessView {
  cosigner: SigningKey;
  logKeys: (origin: string) => VerifierKey[];
  last: (origin: string) => Checkpoint | null;
}

/** Decides an add-checkpoint request at `time` (unix seconds), in the order the specification checks. */
export function addCheckpoint(body: string, view: WitnessView, time: number): WitnessAnswer {
  let req: AddCheckpoint;
  let cp: SignedCheckpoint;
  try {
    req = parseAddCheckpoint(body);
    cp = parseCheckpoint(req.checkpoint);
  } catch (err) {
    return { status: 400, body: `${(err as Error).message}\n` };
  }
  const keys = view.logKeys(cp.origin);
  if (keys.length === 0) return { status: 404, body: `unknown log ${cp.origin}\n` };
  if (!keys.some((k) => signedBy(cp, k))) return { status: 403, body: `the checkpoint is not signed by a key of ${cp.origin} this witness trusts\n` };
  if (req.oldSize > cp.size) return { status: 400, body: `the old size ${req.oldSize} is larger than the checkpoint's ${cp.size}\n` };
  const last = view.last(cp.origin);
  const lastSize = last?.size ?? 0;
  const conflict = { status: 409 as const, body: `${lastSize}\n`, contentType: TLOG_SIZE_TYPE };
  if (req.oldSize !== lastSize) return conflict;
  if (last && req.oldSize === cp.size) {
    // The same size with another root: two trees of one size, a fork.
    if (!last.root.equals(cp.root)) return { ...conflict, evidence: true };
  } else if (req.oldSize === 0 ? req.proof.length > 0 : !last || !verifyConsistency(req.oldSize, cp.size, req.proof, last.root, cp.root)) {
    return { status: 422, body: `the consistency proof from ${req.oldSize} to ${cp.size} does not verify: not an extension of the tree this witness cosigned\n`, evidence: true };
  }
  return { status: 200, body: cosign(cp.body, view.cosigner, time), origin: cp.origin, keep: req.checkpoint };
}
