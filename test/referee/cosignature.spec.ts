import { checkpointBody, parseCheckpoint, parseNote, parseVerifierKey, signCheckpoint, signingKeyOf, verifierKeyText } from '../../src/referee/core/tlog/checkpoint.js';
import { checkCosignatures, cosign, cosignatureTime, cosignedAt, cosignerKeyText, cosignerOf, parseCosignerKey, witnessPolicy } from '../../src/referee/core/tlog/cosignature.js';
import { leafHash, nodeHash } from '../../src/referee/core/tlog/merkle.js';
import { addCheckpoint, addCheckpointBody, parseAddCheckpoint, type WitnessView } from '../../src/referee/core/tlog/witness.js';

/**
 * Witness cosignatures (c2sp.org/tlog-cosignature) and the witness's add-checkpoint decisions
 * (c2sp.org/tlog-witness). Vectors: the C2SP example's cosignature (its time), a public witness's
 * key (its id, type 0x04), and a cosignature line computed by an independent script (Python's
 * `cryptography`, from the specification's text) for a fixed seed, time and checkpoint.
 */
const SPEC_BODY = 'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n';
const SPEC_COSIGNATURE = 'jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlrDJsX3b2oyin1nPZqhf5nNo0xUe+mbIUBkBIfZ+qnA==';
const REMORA = 'remora.n621.de+da77ade7+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2';
/** Seed 00 01 … 1f, name witness.example/w1, time 1679315147, SPEC_BODY (the independent script's output). */
const PY_VKEY = 'witness.example/w1+e75f6532+BAOhB7/zzhC+HXDdGOdLwJln5NYwm6UNXx3chmQSVTG4';
const PY_LINE = '\u2014 witness.example/w1 519lMgAAAABkGFDLBuRDazBLVac2NE+Y+IjbjQOcXLfF9CSDZVUIoS83rE1nFZsVE8YiWV6Ngr7lV8H6bdoBQGP/l73euDMQ9k+bBQ==\n';

const SEED = Buffer.from(Array.from({ length: 32 }, (_, i) => i));

describe('cosignatures (c2sp.org/tlog-cosignature)', () => {
  it('match the vectors: the time of the specification example, a public witness key id, and an independent cosignature byte for byte', () => {
    expect(cosignatureTime(Buffer.from(SPEC_COSIGNATURE, 'base64').subarray(4))).toBe(1679315147);
    expect(parseCosignerKey(REMORA).keyId.toString('hex')).toBe('da77ade7');
    const witness = cosignerOf(signingKeyOf('witness.example/w1', SEED));
    expect(cosignerKeyText(witness)).toBe(PY_VKEY);
    expect(cosign(SPEC_BODY, witness, 1679315147)).toBe(PY_LINE);
    expect(cosignedAt(parseNote(`${SPEC_BODY}\n${PY_LINE}`), parseCosignerKey(PY_VKEY))).toBe(1679315147);
  });

  it("verify with the witness's key and fail with another, or on another checkpoint; a plain note key (0x01) is read as the same key cosigning", () => {
    const log = signingKeyOf('arbiter.example/log', Buffer.alloc(32, 1));
    const note = signCheckpoint({ origin: 'arbiter.example/log', size: 3, root: Buffer.alloc(32, 2) }, log);
    const witness = cosignerOf(signingKeyOf('w1', Buffer.alloc(32, 3)));
    const cosigned = parseCheckpoint(note + cosign(parseCheckpoint(note).body, witness, 1700000000));
    expect(cosignedAt(cosigned, parseCosignerKey(cosignerKeyText(witness)))).toBe(1700000000);
    expect(cosignedAt(cosigned, parseCosignerKey(verifierKeyText(signingKeyOf('w1', Buffer.alloc(32, 3)))))).toBe(1700000000);
    const stranger = parseCosignerKey(cosignerKeyText(signingKeyOf('w1', Buffer.alloc(32, 4))));
    expect(cosignedAt(cosigned, stranger)).toBeNull();
    // The log's own signature (type 0x01 id) is no cosignature, even of the log's key.
    expect(cosignedAt(cosigned, parseCosignerKey(verifierKeyText(log)))).toBeNull();
    expect(cosignedAt(parseCheckpoint(`${note}${cosign('another\n3\nAAAA\n', witness, 1)}`), parseCosignerKey(cosignerKeyText(witness)))).toBeNull();

    const policy = witnessPolicy([cosignerKeyText(witness), cosignerKeyText(signingKeyOf('w2', Buffer.alloc(32, 5)))], '1');
    expect(checkCosignatures(cosigned, policy)).toMatchObject({ ok: true, cosigners: ['w1'] });
    expect(checkCosignatures(cosigned, { ...policy, quorum: 2 })).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/cosigned by 1 of the 2 witnesses given, 2 required \(no valid cosignature of w2\)/),
    });
    expect(() => witnessPolicy([cosignerKeyText(witness)], '2')).toThrow(/quorum/);
  });
});

describe('a witness (c2sp.org/tlog-witness add-checkpoint)', () => {
  const log = signingKeyOf('arbiter.example/log', Buffer.alloc(32, 1));
  const witness = cosignerOf(signingKeyOf('w1', Buffer.alloc(32, 3)));
  const leaves = Array.from({ length: 8 }, (_, i) => leafHash(Buffer.from([i])));
  const root = (ls: Buffer[]): Buffer => (ls.length === 1 ? ls[0] : nodeHash(root(ls.slice(0, 2 ** Math.floor(Math.log2(ls.length - 1)))), root(ls.slice(2 ** Math.floor(Math.log2(ls.length - 1))))));
  const checkpoint = (size: number, ls = leaves) => signCheckpoint({ origin: 'arbiter.example/log', size, root: root(ls.slice(0, size)) }, log);
  let kept: ReturnType<typeof parseCheckpoint> | null = null;
  const view: WitnessView = { cosigner: witness, logKeys: (o) => (o === 'arbiter.example/log' ? [parseVerifierKey(verifierKeyText(log))] : []), last: () => kept };
  const ask = (body: string) => {
    const answer = addCheckpoint(body, view, 1700000000);
    if (answer.status === 200) kept = parseCheckpoint(answer.keep);
    return answer;
  };

  it('cosigns the first checkpoint, then only with a consistency proof from the size it cosigned; 409 with its size otherwise', () => {
    const first = ask(addCheckpointBody({ oldSize: 0, proof: [], checkpoint: checkpoint(4) }));
    expect(first).toMatchObject({ status: 200 });
    expect(cosignedAt(parseNote(checkpoint(4) + (first as { body: string }).body), parseCosignerKey(cosignerKeyText(witness)))).toBe(1700000000);
    expect(ask(addCheckpointBody({ oldSize: 0, proof: [], checkpoint: checkpoint(6) }))).toEqual({ status: 409, body: '4\n', contentType: 'text/x.tlog.size' });
    // RFC 9162 §2.1.4 consistency proof from 4 to 6: the subtree [4, 6) (the tree of 4 is its own root).
    const proof = [root(leaves.slice(4, 6))];
    const body = addCheckpointBody({ oldSize: 4, proof, checkpoint: checkpoint(6) });
    expect(parseAddCheckpoint(body)).toEqual({ oldSize: 4, proof, checkpoint: checkpoint(6) });
    expect(ask(body)).toMatchObject({ status: 200 });
    expect(kept?.size).toBe(6);
    expect(ask(addCheckpointBody({ oldSize: 6, proof: [], checkpoint: checkpoint(6) }))).toMatchObject({ status: 200 });
  });

  it('refuses a fork (another tree of the same or a larger size), a checkpoint the log did not sign, an unknown log and a malformed request', () => {
    const forked = leaves.map((l, i) => (i === 1 ? leafHash(Buffer.from('rewritten')) : l));
    expect(ask(addCheckpointBody({ oldSize: 6, proof: [], checkpoint: checkpoint(6, forked) }))).toMatchObject({ status: 409, body: '6\n', evidence: true });
    const forkProof = [root(forked.slice(4, 6)), root(forked.slice(6, 8)), root(forked.slice(0, 4))];
    expect(ask(addCheckpointBody({ oldSize: 6, proof: forkProof, checkpoint: checkpoint(8, forked) }))).toMatchObject({ status: 422, evidence: true });
    expect(kept?.root.equals(root(leaves.slice(0, 6)))).toBe(true);
    const other = signingKeyOf('arbiter.example/log', Buffer.alloc(32, 9));
    expect(ask(addCheckpointBody({ oldSize: 6, proof: [], checkpoint: signCheckpoint({ origin: 'arbiter.example/log', size: 6, root: root(leaves.slice(0, 6)) }, other) }))).toMatchObject({
      status: 403,
    });
    expect(ask(addCheckpointBody({ oldSize: 0, proof: [], checkpoint: signCheckpoint({ origin: 'elsewhere/log', size: 1, root: leaves[0] }, log) }))).toMatchObject({ status: 404 });
    expect(ask('old 01\n\nx')).toMatchObject({ status: 400 });
    expect(ask(addCheckpointBody({ oldSize: 9, proof: [], checkpoint: checkpoint(6) }))).toMatchObject({ status: 400 });
    expect(checkpointBody(kept!)).toBe(parseCheckpoint(checkpoint(6)).body);
  });
});
