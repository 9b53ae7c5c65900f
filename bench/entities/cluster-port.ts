/**
 * The engine's ClusterPort over the entities store and expandCluster, for the benchmark only until src/entities
 * ships its own (then the figure uses that one). Same contract as src/screening/engine/cluster-labels.ts: each asked
 * address's cluster is grown through the chain client while the screening's budget lasts, then read from Postgres;
 * an address no transaction joined to another is absent.
 */
import { type ClusterStore, expandCluster } from '../../src/entities';
import type { ClusterMembership, ClusterPort } from '../../src/screening/engine/cluster-labels';

export function benchClusterPort(store: ClusterStore): ClusterPort {
  return {
    async clustersOf(chain, addresses, { client, budget, maxMembers, signal }) {
      const out = new Map<string, ClusterMembership>();
      for (const address of new Set(addresses)) {
        const left = budget.calls - budget.spent;
        if (client && left > 0 && !signal.aborted) {
          const grown = await expandCluster({ store, client, chain, address, maxCalls: left, signal });
          budget.spent += grown.calls;
        }
        const cluster = await store.clusterOf(chain, address, { members: maxMembers });
        if (cluster && cluster.size > 1)
          out.set(address, {
            id: String(cluster.id),
            size: cluster.size,
            partial: cluster.partial,
            members: cluster.members ?? [address],
          });
      }
      return out;
    },
    async explain(chain, from, to) {
      const steps = await store.explain(chain, from, to);
      return steps ? steps.map((s) => ({ a: s.from, b: s.to, heuristic: s.heuristic, txid: s.txid })) : null;
    },
  };
}
