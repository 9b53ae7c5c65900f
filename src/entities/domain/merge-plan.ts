import type { ClusterLink } from './cluster-link';
import { UnionFind } from './union-find';

/** Where one address of a batch already is: its stored cluster and that cluster's size. */
export interface StoredMembership {
  clusterId: number;
  size: number;
}

/** The writes one batch of links needs, worked out in memory so the store writes them set-based. */
export interface MergePlan {
  /** The links that joined two different sets, in batch order: the evidence to keep. */
  evidence: ClusterLink[];
  /** New clusters, one per set made only of addresses not stored before. */
  created: { addresses: string[]; size: number }[];
  /** Surviving stored clusters whose size changed. */
  grown: { id: number; size: number }[];
  /** Stored clusters absorbed by a larger one. */
  absorbed: { loser: number; survivor: number }[];
  /** New addresses that join a stored cluster. */
  joined: { address: string; clusterId: number }[];
  /** The stored clusters the batch's addresses end up in (created ones get ids only when written). */
  survivorIds: number[];
}

/**
 * Plans a batch: each stored cluster is ONE key of the union-find weighted by its size (its members never need
 * loading), each new address a key of its own. Union by size decides the survivor of every merged set: the largest
 * stored cluster (the lowest id on a tie: the oldest), so only the smaller clusters' addresses are relabelled and
 * an address moves O(log n) times over the cluster's life.
 */
export function planMerges(links: readonly ClusterLink[], stored: ReadonlyMap<string, StoredMembership>): MergePlan {
  const uf = new UnionFind();
  const sizes = new Map<number, number>();
  for (const { clusterId, size } of stored.values()) {
    sizes.set(clusterId, size);
    uf.add(`#${clusterId}`, size);
  }
  const key = (address: string) => {
    const s = stored.get(address);
    return s ? `#${s.clusterId}` : `@${address}`;
  };
  const evidence = links.filter((l) => l.a !== l.b && uf.union(key(l.a), key(l.b)));

  const plan: MergePlan = { evidence, created: [], grown: [], absorbed: [], joined: [], survivorIds: [] };
  for (const keys of uf.components().values()) {
    const clusters = keys.filter((k) => k.startsWith('#')).map((k) => Number(k.slice(1)));
    const fresh = keys.filter((k) => k.startsWith('@')).map((k) => k.slice(1));
    if (clusters.length === 0) {
      plan.created.push({ addresses: fresh, size: fresh.length });
      continue;
    }
    const survivor = clusters.reduce((best, id) => {
      const [s, b] = [sizes.get(id)!, sizes.get(best)!];
      return s > b || (s === b && id < best) ? id : best;
    });
    plan.survivorIds.push(survivor);
    if (clusters.length === 1 && fresh.length === 0) continue;
    const size = clusters.reduce((sum, id) => sum + sizes.get(id)!, fresh.length);
    plan.grown.push({ id: survivor, size });
    for (const id of clusters) if (id !== survivor) plan.absorbed.push({ loser: id, survivor });
    for (const address of fresh) plan.joined.push({ address, clusterId: survivor });
  }
  return plan;
}
