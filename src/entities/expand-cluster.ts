import type { ChainClient } from '../screening';
import type { ClusterStore } from './cluster-store';
import { accountMemberExpander } from './expansion/account-member';
import { callBudget } from './expansion/call-budget';
import type { ExpandMember } from './expansion/member-expansion';
import { utxoMemberExpander } from './expansion/utxo-member';
import { dustOf } from './domain/coinjoin';

export interface ExpandClusterInput {
  store: Pick<ClusterStore, 'applyLinks' | 'markExpanded' | 'clusterOf' | 'unexpanded' | 'notExpanded'>;
  client: ChainClient;
  chain: string;
  address: string;
  /** Chain calls this expansion may make (reads of addresses' transactions, and on account chains contract checks). */
  maxCalls: number;
  /** Transactions or transfers read per member (one call). */
  pageLimit?: number;
  /**
   * Whether the reference data (or the account) labels this address an exchange or custodian: such an address is a hot
   * wallet even when one deposit address is all the transactions show (Victor 2020 starts from labelled exchanges).
   */
  isLabelledExchange?: (address: string) => Promise<boolean>;
  /** Read the address itself again when its last read is older than this; unset: an address is read once. */
  rereadAfterMs?: number;
  signal: AbortSignal;
}

export interface ExpandClusterResult {
  /** The address's cluster after the expansion; id null when it is in none stored (a singleton). */
  cluster: { id: number | null; size: number; partial: boolean };
  calls: number;
  /** Merges this expansion made. */
  merged: number;
}

export const DEFAULT_PAGE_LIMIT = 100;
// Unread members taken from the store at a time, once the members this run joined are all read.
const REFILL = 100;

function memberExpander(input: ExpandClusterInput, budget: ReturnType<typeof callBudget>): ExpandMember | null {
  const { client, store, chain } = input;
  const pageLimit = input.pageLimit ?? DEFAULT_PAGE_LIMIT;
  if (client.getAddressTransactions)
    return utxoMemberExpander(
      client as ChainClient & Required<Pick<ChainClient, 'getAddressTransactions'>>,
      budget,
      pageLimit,
      dustOf(chain),
    );
  if (client.getAddressTransfers)
    return accountMemberExpander(
      client as ChainClient & Required<Pick<ChainClient, 'getAddressTransfers'>>,
      budget,
      pageLimit,
      (addresses) => store.notExpanded(chain, addresses),
      input.isLabelledExchange ?? (async () => false),
    );
  return null;
}

/**
 * Grows the cluster of `address` as far as `maxCalls` reaches: breadth-first from the address over members whose
 * transactions were never read, each read's links applied at once (so a concurrent expansion of the same cluster sees
 * them, and a stopped one keeps its progress). When the members this run joined are all read, the store's other unread
 * members follow (joined by earlier or concurrent expansions): a second expansion continues where the first stopped. It
 * ends when no member is left unread (the cluster is complete unless a read was truncated) or the budget is spent or
 * the signal aborted (partial). A chain whose client reads no transactions of an address has nothing to expand: the
 * address is what the store holds, or a singleton.
 */
export async function expandCluster(input: ExpandClusterInput): Promise<ExpandClusterResult> {
  const { store, chain, address, signal } = input;
  const budget = callBudget(input.maxCalls, signal);
  const expandMember = memberExpander(input, budget);
  const summary = async (unreadMeansPartial: boolean): Promise<ExpandClusterResult['cluster']> => {
    const c = await store.clusterOf(chain, address);
    return c ? { id: c.id, size: c.size, partial: c.partial } : { id: null, size: 1, partial: unreadMeansPartial };
  };
  if (!expandMember) return { cluster: await summary(false), calls: 0, merged: 0 };

  let merged = 0;
  const queue: string[] = [];
  const queued = new Set<string>();
  const enqueue = (addresses: string[]) => {
    for (const a of addresses) {
      if (queued.has(a)) continue;
      queued.add(a);
      queue.push(a);
    }
  };
  // The screened address itself is read again once its last read is older than `rereadAfterMs`: it may have spent
  // together with others since (a monitor's re-screen finds its address's new merges this way).
  const rereads = new Set(await store.notExpanded(chain, [address], input.rereadAfterMs));
  enqueue([...rereads]);

  while (!budget.stopped) {
    const next = queue.shift();
    if (next === undefined) {
      const cluster = await store.clusterOf(chain, address);
      const pending = cluster ? (await store.unexpanded(chain, cluster.id, REFILL)).filter((a) => !queued.has(a)) : [];
      if (pending.length === 0) break;
      enqueue(pending);
      continue;
    }
    // A concurrent expansion of the same cluster may have read it since it was queued: no call spent twice.
    if ((await store.notExpanded(chain, [next], rereads.has(next) ? input.rereadAfterMs : undefined)).length === 0)
      continue;
    const step = await expandMember(next);
    if (!step) break;
    if (step.links.length > 0) merged += (await store.applyLinks(chain, step.links)).merged;
    for (const truncated of [false, true]) {
      const read = step.read.filter((r) => r.truncated === truncated).map((r) => r.address);
      if (read.length > 0) await store.markExpanded(chain, read, truncated);
    }
    enqueue(await store.notExpanded(chain, [...new Set(step.links.flatMap((l) => [l.a, l.b]))]));
  }
  return { cluster: await summary(true), calls: budget.calls, merged };
}
