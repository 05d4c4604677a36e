/**
 * A matching on a graph of `size` vertices whose edges are given as a dense adjacency matrix
 * (`edges[a * size + b] !== 0`), with Edmonds' blossom search for augmenting paths. The Swiss
 * pairing (S5.8) uses it as an exact feasibility test: "does a perfect matching of the members
 * still unpaired exist?", answered by repairing one kept matching instead of searching anew.
 *
 * Vertices can be removed (paired, or given the bye); removed vertices and their edges no
 * longer exist for any search.
 */
export class Matching {
  private readonly mate: Int32Array;
  private readonly present: Uint8Array;
  // Scratch space of the augmenting-path search, reused by every search.
  private readonly parent: Int32Array;
  private readonly base: Int32Array;
  private readonly queued: Uint8Array;
  private readonly onPath: Uint8Array;
  private readonly inBlossom: Uint8Array;
  private readonly queue: Int32Array;

  constructor(
    private readonly size: number,
    private readonly edges: Uint8Array,
  ) {
    this.mate = new Int32Array(size).fill(-1);
    this.present = new Uint8Array(size).fill(1);
    this.parent = new Int32Array(size);
    this.base = new Int32Array(size);
    this.queued = new Uint8Array(size);
    this.onPath = new Uint8Array(size);
    this.inBlossom = new Uint8Array(size);
    this.queue = new Int32Array(size);
  }

  /** Grows the matching to a maximum one; returns its number of pairs. */
  maximize(): number {
    const { size, edges, mate, present } = this;
    // A greedy start leaves few vertices to the (costlier) blossom search.
    for (let v = 0; v < size; v++) {
      if (!present[v] || mate[v] !== -1) continue;
      for (let w = v + 1; w < size; w++) {
        if (present[w] && mate[w] === -1 && edges[v * size + w]) {
          mate[v] = w;
          mate[w] = v;
          break;
        }
      }
    }
    // One search per unmatched vertex suffices: a vertex with no augmenting path now never
    // gets one later (Edmonds).
    for (let v = 0; v < size; v++) if (present[v] && mate[v] === -1) this.augmentFrom(v);
    let pairs = 0;
    for (let v = 0; v < size; v++) if (present[v] && mate[v] > v) pairs++;
    return pairs;
  }

  /**
   * With exactly one present vertex left unmatched: removes `v` if the others still have a
   * perfect matching (and keeps one), else changes nothing and returns false.
   */
  removeKeepingPerfect(v: number): boolean {
    const partner = this.mate[v];
    this.present[v] = 0;
    this.mate[v] = -1;
    if (partner === -1) return true;
    this.mate[partner] = -1;
    const unmatched = this.mate.findIndex((m, u) => m === -1 && this.present[u] === 1 && u !== partner);
    if (this.rejoin(partner, unmatched)) return true;
    this.present[v] = 1;
    this.mate[v] = partner;
    this.mate[partner] = v;
    return false;
  }

  /**
   * With a perfect matching of the present vertices: removes the edge `a`-`b` with both ends if
   * the others still have a perfect matching (and keeps one), else changes nothing and returns
   * false. Free when `a`-`b` is already in the matching.
   */
  removePairKeepingPerfect(a: number, b: number): boolean {
    const mateA = this.mate[a];
    const mateB = this.mate[b];
    this.present[a] = this.present[b] = 0;
    this.mate[a] = this.mate[b] = -1;
    if (mateA === b) return true;
    this.mate[mateA] = this.mate[mateB] = -1;
    if (this.rejoin(mateA, mateB)) return true;
    this.present[a] = this.present[b] = 1;
    this.mate[a] = mateA;
    this.mate[mateA] = a;
    this.mate[b] = mateB;
    this.mate[mateB] = b;
    return false;
  }

  /**
   * With `a` and `b` the only unmatched present vertices: matches everyone if possible. An
   * augmenting path must join them (Berge); the search from `a` finds it if it exists. In a
   * dense graph a path of one or three edges almost always exists, and is found in O(size).
   */
  private rejoin(a: number, b: number): boolean {
    const { size, edges, mate, present } = this;
    if (edges[a * size + b]) {
      mate[a] = b;
      mate[b] = a;
      return true;
    }
    for (let x = 0; x < size; x++) {
      const y = mate[x];
      if (present[x] && y !== -1 && edges[a * size + x] && edges[y * size + b]) {
        mate[a] = x;
        mate[x] = a;
        mate[y] = b;
        mate[b] = y;
        return true;
      }
    }
    return this.augmentFrom(a);
  }

  /** Edmonds' search from the unmatched `root`; augments along the first path found. */
  private augmentFrom(root: number): boolean {
    const { size, edges, mate, present, parent, base, queued, queue } = this;
    parent.fill(-1);
    queued.fill(0);
    for (let v = 0; v < size; v++) base[v] = v;
    queued[root] = 1;
    queue[0] = root;
    let head = 0;
    let tail = 1;
    while (head < tail) {
      const v = queue[head++];
      const row = v * size;
      for (let to = 0; to < size; to++) {
        if (!present[to] || !edges[row + to] || base[v] === base[to] || mate[v] === to) continue;
        if (to === root || (mate[to] !== -1 && parent[mate[to]] !== -1)) {
          // An odd cycle: contract the blossom into its base and scan its new outer vertices.
          const top = this.commonBase(v, to);
          this.inBlossom.fill(0);
          this.markPath(v, top, to);
          this.markPath(to, top, v);
          for (let u = 0; u < size; u++) {
            if (!present[u] || !this.inBlossom[base[u]]) continue;
            base[u] = top;
            if (!queued[u]) {
              queued[u] = 1;
              queue[tail++] = u;
            }
          }
        } else if (parent[to] === -1) {
          parent[to] = v;
          if (mate[to] === -1) {
            this.flip(to);
            return true;
          }
          queued[mate[to]] = 1;
          queue[tail++] = mate[to];
        }
      }
    }
    return false;
  }

  /** The base of the blossom closed by the edge a-b: where their alternating paths meet. */
  private commonBase(a: number, b: number): number {
    const { mate, parent, base, onPath } = this;
    onPath.fill(0);
    for (;;) {
      a = base[a];
      onPath[a] = 1;
      if (mate[a] === -1) break;
      a = parent[mate[a]];
    }
    for (;;) {
      b = base[b];
      if (onPath[b]) return b;
      b = parent[mate[b]];
    }
  }

  private markPath(v: number, top: number, child: number): void {
    const { mate, parent, base, inBlossom } = this;
    while (base[v] !== top) {
      inBlossom[base[v]] = inBlossom[base[mate[v]]] = 1;
      parent[v] = child;
      child = mate[v];
      v = parent[mate[v]];
    }
  }

  /** Swaps matched and unmatched edges along the path that ends at the unmatched `end`. */
  private flip(end: number): void {
    const { mate, parent } = this;
    let v = end;
    while (v !== -1) {
      const prev = parent[v];
      const next = mate[prev];
      mate[v] = prev;
      mate[prev] = v;
      v = next;
    }
  }
}
