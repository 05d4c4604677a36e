import { createHash } from 'node:crypto';

/**
 * The transparency log's Merkle tree, RFC 9162 §2.1 (the hashing of RFC 6962): pure functions,
 * no I/O. A leaf hashes as SHA-256(0x00 || data), an inner node as SHA-256(0x01 || left ||
 * right), and a tree whose size is not a power of two splits at the largest power of two below
 * its size (MTH, §2.1.1). Tree sizes and indices are plain numbers (exact up to 2^53).
 *
 * Storage works on perfect subtrees: the node (level, index) covers the leaves
 * [index·2^level, (index+1)·2^level). Every subtree a proof or a root names ("range", [lo, hi))
 * is the fold from the right of the perfect nodes that decompose it, so a store keeps the hashes
 * of the perfect nodes (written once, when their last leaf arrives) and answers any root or
 * proof from O(log n) of them: nothing is re-hashed per checkpoint.
 */

export const HASH_BYTES = 32;

export interface NodeId {
  level: number;
  index: number;
}

/** A perfect node with its hash, as stored. */
export interface StoredNode extends NodeId {
  hash: Buffer;
}

/** The leaves [lo, hi) of a tree. */
export interface Range {
  lo: number;
  hi: number;
}

const sha256 = (...parts: Uint8Array[]): Buffer => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};

const LEAF_PREFIX = Buffer.from([0x00]);
const NODE_PREFIX = Buffer.from([0x01]);

/** MTH of one entry: SHA-256(0x00 || data). */
export const leafHash = (data: Uint8Array): Buffer => sha256(LEAF_PREFIX, data);
/** An inner node: SHA-256(0x01 || left || right). */
export const nodeHash = (left: Uint8Array, right: Uint8Array): Buffer => sha256(NODE_PREFIX, left, right);
/** MTH of the empty tree: SHA-256 of nothing. */
export const EMPTY_ROOT: Buffer = sha256();

const isSize = (n: number) => Number.isSafeInteger(n) && n >= 0;
/** Every hash of a proof is a SHA-256: one of another length proves nothing. */
const hashes = (...hs: readonly Uint8Array[]) => hs.every((h) => h.length === HASH_BYTES);
const half = (n: number) => Math.floor(n / 2);
const odd = (n: number) => n % 2 === 1;

/** The largest power of two below n (n > 1): where MTH splits D[n]. */
export function splitOf(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** The perfect nodes that make up [lo, hi), left to right (each as large as its start's alignment allows). */
export function nodesOfRange({ lo, hi }: Range): NodeId[] {
  const nodes: NodeId[] = [];
  let at = lo;
  while (at < hi) {
    let level = 0;
    while (at % 2 ** (level + 1) === 0 && at + 2 ** (level + 1) <= hi) level++;
    nodes.push({ level, index: at / 2 ** level });
    at += 2 ** level;
  }
  return nodes;
}

/** MTH of a range from its perfect nodes' hashes (nodesOfRange's order): folded from the right (§2.1.1). */
export function foldRange(hashes: readonly Buffer[]): Buffer {
  if (hashes.length === 0) return EMPTY_ROOT;
  let acc = hashes[hashes.length - 1];
  for (let i = hashes.length - 2; i >= 0; i--) acc = nodeHash(hashes[i], acc);
  return acc;
}

/** PATH(m, D[n]) (§2.1.3.1) as the ranges whose MTHs make it, leaf side first. */
export function inclusionRanges(index: number, size: number): Range[] {
  if (!isSize(size) || !Number.isSafeInteger(index) || index < 0 || index >= size) throw new RangeError(`no leaf ${index} in a tree of ${size}`);
  const out: Range[] = [];
  const path = (m: number, lo: number, hi: number) => {
    if (hi - lo <= 1) return;
    const k = splitOf(hi - lo);
    if (m < k) {
      path(m, lo, lo + k);
      out.push({ lo: lo + k, hi });
    } else {
      path(m - k, lo + k, hi);
      out.push({ lo, hi: lo + k });
    }
  };
  path(index, 0, size);
  return out;
}

/** PROOF(m, D[n]) (§2.1.4.1) as the ranges whose MTHs make it; empty when m is 0 or n. */
export function consistencyRanges(m: number, n: number): Range[] {
  if (!isSize(m) || !isSize(n) || m > n) throw new RangeError(`no consistency proof from ${m} to ${n}`);
  if (m === 0 || m === n) return [];
  const out: Range[] = [];
  const sub = (m: number, lo: number, hi: number, whole: boolean) => {
    if (m === hi - lo) {
      if (!whole) out.push({ lo, hi });
      return;
    }
    const k = splitOf(hi - lo);
    if (m <= k) {
      sub(m, lo, lo + k, whole);
      out.push({ lo: lo + k, hi });
    } else {
      sub(m - k, lo + k, hi, false);
      out.push({ lo, hi: lo + k });
    }
  };
  sub(m, 0, n, true);
  return out;
}

const nodeKey = (n: NodeId) => `${n.level}/${n.index}`;

/** The perfect nodes a list of ranges needs, each once: what a store reads to answer them. */
export function nodesNeeded(ranges: readonly Range[]): NodeId[] {
  const all = new Map<string, NodeId>();
  for (const r of ranges) for (const n of nodesOfRange(r)) all.set(nodeKey(n), n);
  return [...all.values()];
}

/** The ranges' MTHs from the perfect nodes read (a missing one is the store's fault: it throws). */
export function hashRanges(ranges: readonly Range[], nodes: readonly StoredNode[]): Buffer[] {
  const byKey = new Map(nodes.map((n) => [nodeKey(n), n.hash]));
  return ranges.map((r) =>
    foldRange(
      nodesOfRange(r).map((n) => {
        const h = byKey.get(nodeKey(n));
        if (!h) throw new Error(`the tree has no node ${nodeKey(n)}`);
        return h;
      }),
    ),
  );
}

/**
 * Appends leaves to a tree of `size` whose right edge is `edge` (the perfect nodes of [0, size),
 * left to right): answers the perfect nodes completed (the leaves included) to store, the new
 * edge and the new root. Each leaf completes at most log2 nodes; earlier nodes never change.
 */
export function appendLeaves(size: number, edge: readonly Buffer[], leaves: readonly Buffer[]): { nodes: StoredNode[]; edge: Buffer[]; size: number; root: Buffer } {
  const levels = nodesOfRange({ lo: 0, hi: size }).map((n) => n.level);
  if (levels.length !== edge.length) throw new Error(`a tree of ${size} has ${levels.length} edge nodes, not ${edge.length}`);
  const stack = edge.map((hash, i) => ({ level: levels[i], hash }));
  const nodes: StoredNode[] = [];
  let n = size;
  for (const leaf of leaves) {
    let node = { level: 0, index: n, hash: leaf };
    nodes.push(node);
    // A right child completes its parent, with its left sibling (the top of the stack).
    while (odd(node.index)) {
      const left = stack.pop();
      if (!left || left.level !== node.level) throw new Error('the edge does not match the tree');
      node = { level: node.level + 1, index: half(node.index), hash: nodeHash(left.hash, node.hash) };
      nodes.push(node);
    }
    stack.push({ level: node.level, hash: node.hash });
    n++;
  }
  const hashes = stack.map((s) => s.hash);
  return { nodes, edge: hashes, size: n, root: foldRange(hashes) };
}

/** RFC 9162 §2.1.3.2: does `proof` take the leaf at `index` to `root` in a tree of `size`? */
export function verifyInclusion(index: number, size: number, leaf: Uint8Array, proof: readonly Uint8Array[], root: Uint8Array): boolean {
  if (!isSize(size) || !Number.isSafeInteger(index) || index < 0 || index >= size || !hashes(leaf, root, ...proof)) return false;
  let r: Uint8Array = leaf;
  const walked = climb(index, size - 1, proof, (p, left) => {
    r = left ? nodeHash(p, r) : nodeHash(r, p);
  });
  return walked && Buffer.from(r).equals(root);
}

/**
 * RFC 9162 §2.1.4.2: does `proof` show the tree of size `m` with root `first` is a prefix of the
 * tree of size `n` with root `second`? Equal sizes need equal roots and an empty proof; a first
 * size of 0 proves nothing and is refused (every tree extends the empty one).
 */
export function verifyConsistency(m: number, n: number, proof: readonly Uint8Array[], first: Uint8Array, second: Uint8Array): boolean {
  if (!isSize(m) || !isSize(n) || m === 0 || m > n) return false;
  if (m === n) return proof.length === 0 && Buffer.from(first).equals(second);
  if (proof.length === 0 || !hashes(first, second, ...proof)) return false;
  const path = Number.isInteger(Math.log2(m)) ? [first, ...proof] : [...proof];
  let fn = m - 1;
  let sn = n - 1;
  while (odd(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr: Uint8Array = path[0];
  let sr: Uint8Array = path[0];
  const walked = climb(fn, sn, path.slice(1), (c, left) => {
    if (left) fr = nodeHash(c, fr);
    sr = left ? nodeHash(c, sr) : nodeHash(sr, c);
  });
  return walked && Buffer.from(fr).equals(first) && Buffer.from(sr).equals(second);
}

/**
 * The walk both verifications share (§2.1.3.2, §2.1.4.2): from node `fn` of the last node `sn`
 * up to the root, each proof hash a left sibling (`left`) or a right one, told to `fold`.
 * False when the proof is longer than the path or ends below the root.
 */
function climb(fn: number, sn: number, proof: readonly Uint8Array[], fold: (p: Uint8Array, left: boolean) => void): boolean {
  for (const p of proof) {
    if (sn === 0) return false;
    const left = odd(fn) || fn === sn;
    fold(p, left);
    // A left sibling at the right edge: climb past the levels where this node has no sibling.
    while (left && !odd(fn) && fn !== 0) {
      fn = half(fn);
      sn = half(sn);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0;
}
