/**
 * A disjoint-set forest over string keys, with path compression and union by size: near-constant time per
 * operation, so a batch of links is planned in memory before the store writes it (cluster-store.ts), and the
 * benchmark measures merges per second without a database.
 *
 * Keys are mapped to dense integers once; parents and sizes live in plain arrays, not one Map entry per key, so a
 * few million keys stay cheap. A key is added on first sight, as a set of its own (`add` may give it a weight: the
 * store seeds a whole stored cluster as one key of that cluster's size).
 */
export class UnionFind {
  private readonly index = new Map<string, number>();
  private readonly keys: string[] = [];
  private readonly parent: number[] = [];
  private readonly size: number[] = [];

  /** Adds `key` as a set of `weight` members (default 1); a key already present keeps its set. Answers its index. */
  add(key: string, weight = 1): number {
    const known = this.index.get(key);
    if (known !== undefined) return known;
    const i = this.keys.length;
    this.index.set(key, i);
    this.keys.push(key);
    this.parent.push(i);
    this.size.push(weight);
    return i;
  }

  has(key: string): boolean {
    return this.index.has(key);
  }

  /** The representative key of `key`'s set (adding `key` when new). */
  find(key: string): string {
    return this.keys[this.root(this.add(key))]!;
  }

  /** Joins the sets of `a` and `b`; true when they were apart (a merge happened), false when already one set. */
  union(a: string, b: string): boolean {
    let ra = this.root(this.add(a));
    let rb = this.root(this.add(b));
    if (ra === rb) return false;
    // The smaller tree goes under the larger, so no path grows beyond log2(n) before compression.
    if (this.size[ra]! < this.size[rb]!) [ra, rb] = [rb, ra];
    this.parent[rb] = ra;
    this.size[ra]! += this.size[rb]!;
    return true;
  }

  /** The total weight of `key`'s set (its member count when every key weighs 1); 0 for an unknown key. */
  sizeOf(key: string): number {
    const i = this.index.get(key);
    return i === undefined ? 0 : this.size[this.root(i)]!;
  }

  /** Every set as its representative and its keys, keys in the order they were first seen. */
  components(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (let i = 0; i < this.keys.length; i++) {
      const root = this.keys[this.root(i)]!;
      const members = out.get(root);
      if (members) members.push(this.keys[i]!);
      else out.set(root, [this.keys[i]!]);
    }
    return out;
  }

  /** Number of keys seen. */
  get count(): number {
    return this.keys.length;
  }

  // Iterative (a recursive find would overflow the stack on a long chain before its first compression).
  private root(i: number): number {
    let r = i;
    while (this.parent[r] !== r) r = this.parent[r]!;
    let j = i;
    while (this.parent[j] !== r) {
      const next = this.parent[j]!;
      this.parent[j] = r;
      j = next;
    }
    return r;
  }
}
