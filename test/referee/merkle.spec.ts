import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import {
  appendLeaves,
  consistencyRanges,
  EMPTY_ROOT,
  hashRanges,
  inclusionRanges,
  leafHash,
  nodeHash,
  nodesNeeded,
  type StoredNode,
  splitOf,
  verifyConsistency,
  verifyInclusion,
} from '../../src/referee/core/tlog/merkle.js';

/**
 * The log's tree against an independent implementation: RFC 6962's test leaves with the roots and
 * node hashes transparency-dev/merkle (Go, Apache-2.0) publishes for them, and its verification
 * probes (test/fixtures/tlog/transparency-dev-probes.json: testdata/inclusion and
 * testdata/consistency of commit 417fb0c, valid proofs and their mutations) run through ours.
 */
const hex = (s: string) => Buffer.from(s, 'hex');
const RFC_LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map(hex);
const RFC_ROOTS = [
  'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
const RFC_LEVEL1 = [
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
  '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
  'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
];

interface InclusionProbe {
  desc: string;
  leafIdx: number;
  treeSize: number;
  root: string | null;
  leafHash: string | null;
  proof: string[];
  wantErr: boolean;
}
interface ConsistencyProbe {
  desc: string;
  size1: number;
  size2: number;
  root1: string | null;
  root2: string | null;
  proof: string[];
  wantErr: boolean;
}
const probes = JSON.parse(readFileSync(new URL('../fixtures/tlog/transparency-dev-probes.json', import.meta.url), 'utf8')) as { inclusion: InclusionProbe[]; consistency: ConsistencyProbe[] };

/** A tree built by appending `leaves` a batch at a time, with every node it stored. */
function build(leaves: readonly Buffer[], batches: readonly number[] = [leaves.length]) {
  let tree = { size: 0, edge: [] as Buffer[], root: EMPTY_ROOT };
  const nodes: StoredNode[] = [];
  const roots = [EMPTY_ROOT];
  let at = 0;
  for (const b of [...batches, leaves.length]) {
    const batch = leaves.slice(at, Math.min(leaves.length, at + b));
    at += batch.length;
    for (const leaf of batch) {
      // One leaf at a time, to keep every size's root.
      const next = appendLeaves(tree.size, tree.edge, [leaf]);
      nodes.push(...next.nodes);
      tree = next;
      roots.push(next.root);
    }
  }
  return { ...tree, nodes, roots };
}

/** MTH by the RFC's recursive definition (§2.1.1), as the reference. */
function mth(leaves: readonly Buffer[]): Buffer {
  if (leaves.length === 0) return EMPTY_ROOT;
  if (leaves.length === 1) return leaves[0];
  const k = splitOf(leaves.length);
  return nodeHash(mth(leaves.slice(0, k)), mth(leaves.slice(k)));
}

const proofOf = (ranges: ReturnType<typeof inclusionRanges>, nodes: StoredNode[]) => {
  const needed = new Set(nodesNeeded(ranges).map((n) => `${n.level}/${n.index}`));
  return hashRanges(
    ranges,
    nodes.filter((n) => needed.has(`${n.level}/${n.index}`)),
  );
};

describe('the transparency log tree (RFC 9162 §2.1)', () => {
  const tree = build(RFC_LEAVES.map(leafHash));

  it('hashes the RFC 6962 test leaves to the roots an independent implementation publishes, for every size', () => {
    expect(tree.roots.map((r) => r.toString('hex'))).toEqual(RFC_ROOTS);
    expect(tree.nodes.filter((n) => n.level === 1).map((n) => n.hash.toString('hex'))).toEqual(RFC_LEVEL1);
  });

  it('generates the proofs the independent implementation publishes for the RFC leaves', () => {
    const rfcRoots = new Set(RFC_ROOTS);
    const inclusion = probes.inclusion.filter((p) => !p.wantErr && p.root && rfcRoots.has(p.root));
    const consistency = probes.consistency.filter((p) => !p.wantErr && p.size1 > 0 && p.size1 < p.size2 && p.root2 && rfcRoots.has(p.root2));
    expect(inclusion.length).toBeGreaterThan(2);
    expect(consistency.length).toBeGreaterThan(2);
    for (const p of inclusion) expect(proofOf(inclusionRanges(p.leafIdx, p.treeSize), tree.nodes).map((h) => h.toString('hex'))).toEqual(p.proof);
    for (const p of consistency) expect(proofOf(consistencyRanges(p.size1, p.size2), tree.nodes).map((h) => h.toString('hex'))).toEqual(p.proof);
  });

  it("agrees with every one of the independent implementation's verification probes, valid and mutated", () => {
    const b = (s: string | null) => hex(s ?? '');
    const wrong = [
      ...probes.inclusion.filter((p) => verifyInclusion(p.leafIdx, p.treeSize, b(p.leafHash), p.proof.map(hex), b(p.root)) === p.wantErr).map((p) => `inclusion ${p.desc}`),
      ...probes.consistency.filter((p) => verifyConsistency(p.size1, p.size2, p.proof.map(hex), b(p.root1), b(p.root2)) === p.wantErr).map((p) => `consistency ${p.desc}`),
    ];
    expect(probes.inclusion.length + probes.consistency.length).toBe(196);
    expect(wrong).toEqual([]);
  });

  // Distinct entries (a log's entries name distinct games), of any bytes.
  const leavesArb = fc.array(fc.uint8Array({ minLength: 0, maxLength: 8 }), { minLength: 1, maxLength: 70 }).map((ls) => ls.map((l, i) => leafHash(Buffer.concat([Buffer.from([i]), l]))));

  it('appending in any batches gives the root of MTH as the RFC defines it, for every size', () => {
    fc.assert(
      fc.property(leavesArb, fc.array(fc.integer({ min: 1, max: 9 }), { maxLength: 8 }), (leaves, batches) => {
        const t = build(leaves, batches);
        for (let n = 0; n <= leaves.length; n++) expect(t.roots[n].equals(mth(leaves.slice(0, n)))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it("every leaf's inclusion proof verifies against every later root, and fails for another leaf, index or root", () => {
    fc.assert(
      fc.property(leavesArb, fc.nat(), fc.nat(), (leaves, i, s) => {
        const t = build(leaves);
        const size = 1 + (s % leaves.length);
        const index = i % size;
        const proof = proofOf(inclusionRanges(index, size), t.nodes);
        expect(verifyInclusion(index, size, leaves[index], proof, t.roots[size])).toBe(true);
        expect(verifyInclusion(index, size, leafHash(Buffer.from('other')), proof, t.roots[size])).toBe(false);
        expect(verifyInclusion(index, size, leaves[index], proof, t.roots[size - 1])).toBe(false);
        if (size > 1) expect(verifyInclusion((index + 1) % size, size, leaves[index], proof, t.roots[size])).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it('every size is consistent with every later one, and a changed leaf or proof is caught', () => {
    fc.assert(
      fc.property(leavesArb, fc.nat(), fc.nat(), fc.nat(), (leaves, a, b, flip) => {
        const t = build(leaves);
        const n = 1 + (b % leaves.length);
        const m = 1 + (a % n);
        const proof = proofOf(consistencyRanges(m, n), t.nodes);
        expect(verifyConsistency(m, n, proof, t.roots[m], t.roots[n])).toBe(true);
        if (m < n) {
          // A history rewritten at one leaf before m: its roots differ, and no proof of ours joins them.
          const forked = [...leaves];
          forked[flip % m] = leafHash(Buffer.from(`forked ${flip}`));
          expect(verifyConsistency(m, n, proof, mth(forked.slice(0, m)), t.roots[n])).toBe(false);
          const bent = proof.map((h, i) => (i === flip % proof.length ? nodeHash(h, h) : h));
          expect(verifyConsistency(m, n, bent, t.roots[m], t.roots[n])).toBe(false);
        }
      }),
      { numRuns: 100 },
    );
  });
});
