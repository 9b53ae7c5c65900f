import { type Chain, type ClusterMembership, type ClusterPort, isClusteredChain } from '../screening';
import type { ClusterStore } from './cluster-store';
import { expandCluster } from './expand-cluster';

/**
 * The chains whose clusters analyses grow: every UTXO chain (bitcoin, litecoin, bitcoin-cash, dogecoin: common-input
 * ownership, CoinJoins never merged) and the EVM chains (deposit addresses). The deposit heuristic is Victor's,
 * measured on Ethereum; tron, solana and ripple keep what is stored (nothing yet).
 */
const growsClusters = (chain: Chain) => isClusteredChain(chain);

/**
 * The engine's ClusterPort (src/screening/engine/cluster-labels.ts) over the cluster store: each asked address's
 * cluster is grown through the chain client while the analysis' call budget lasts, then read from Postgres. An address
 * no transaction joined to another is absent (a cluster of one). Addresses' transactions are read in pages of the
 * crawl's size (`pageLimit`), so an address the crawl read is answered from the chain cache. A chain error while
 * growing does not fail the analysis: the cluster stays as stored, and `partial` says that members were left unread.
 */
export function createClusterPort(
  store: ClusterStore,
  options: {
    pageLimit: number;
    /** A screened address read longer ago than this is read again (CLUSTER_REREAD_AFTER_MS); unset: read once. */
    rereadAfterMs?: number;
    /** Told when an expansion merged sets: monitors watching the cluster may be due (src/monitors). */
    onMerged?: (chain: Chain, clusterId: number) => Promise<unknown>;
  },
): ClusterPort {
  return {
    async clustersOf(chain, addresses, { client, budget, maxMembers, signal, isLabelledExchange }) {
      const asked = [...new Set(addresses)];
      for (const address of client && growsClusters(chain) ? asked : []) {
        const left = budget.calls - budget.spent;
        if (left <= 0 || signal.aborted) break;
        const grown = await expandCluster({
          store,
          client: client!,
          chain,
          address,
          maxCalls: left,
          pageLimit: options.pageLimit,
          isLabelledExchange,
          rereadAfterMs: options.rereadAfterMs,
          signal,
        }).catch(() => null);
        // A failed expansion does not say how many calls it made before failing: count the whole remainder, so a
        // chain that keeps failing is not asked again for every crawled address.
        budget.spent += grown?.calls ?? left;
        // A failed notice must not fail the analysis: the monitors' schedule still re-screens them.
        if (grown && grown.merged > 0 && grown.cluster.id !== null)
          await options.onMerged?.(chain, grown.cluster.id).catch(() => undefined);
      }
      const stored = await store.clustersOf(chain, asked, { members: maxMembers });
      return new Map(
        [...stored].map(([address, c]) => [
          address,
          { id: String(c.id), size: c.size, partial: c.partial, members: c.members } satisfies ClusterMembership,
        ]),
      );
    },
    async explain(chain, from, to) {
      const steps = await store.explain(chain, from, to);
      return steps ? steps.map((s) => ({ a: s.from, b: s.to, heuristic: s.heuristic, txid: s.txid })) : null;
    },
  };
}
