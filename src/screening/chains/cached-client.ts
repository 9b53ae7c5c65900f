import type { ChainCacheStore } from './chain-cache-store';
import type { AddressTransfer, ChainClient } from './chain-client';

export interface CacheStats {
  hits: number;
  misses: number;
}

/** A client whose cache counters can be bound to one job, so its full response reports its own hits. */
export interface CachingChainClient extends Omit<ChainClient, 'forAnalysis'> {
  forAnalysis(stats: CacheStats): ChainClient;
}

const transferKey = (t: AddressTransfer) =>
  `${t.txid}|${t.direction}|${t.counterparty}|${t.asset.kind === 'native' ? 'native' : t.asset.contract}`;

/**
 * Caches a chain client in Postgres: transactions that can no longer change (success or failed, not
 * pending) for good; an address's transfers for `transfersTtlMs`, after which the newest page is read
 * and merged into what is known (incremental: older transfers are kept, newest first, up to `keep`).
 * A cache failure never fails an analysis: the chain is asked instead.
 */
export function createCachingChainClient(
  inner: ChainClient,
  store: ChainCacheStore,
  options: { transfersTtlMs: number; keep?: number; now?: () => number },
): CachingChainClient {
  const keep = options.keep ?? 500;
  const now = options.now ?? Date.now;
  const safe = async <T>(work: () => Promise<T>, fallback: T): Promise<T> => work().catch(() => fallback);

  const bind = (stats: CacheStats, inner: ChainClient): ChainClient => ({
    chain: inner.chain,
    nativeAsset: inner.nativeAsset,
    normalizeAddress: (raw) => inner.normalizeAddress(raw),
    getAddressFacts: (address, opts, signal) => inner.getAddressFacts(address, opts, signal),
    ...(inner.transferSource ? { transferSource: (signal: AbortSignal) => inner.transferSource!(signal) } : {}),
    // Not cached here: the cluster store records which addresses' transactions were read (cluster_addresses).
    ...(inner.getAddressTransactions
      ? {
          getAddressTransactions: (address: string, opts: { limit: number }, signal: AbortSignal) =>
            inner.getAddressTransactions!(address, opts, signal),
        }
      : {}),
    async getTransaction(hash, signal) {
      const cached = await safe(() => store.getTransaction(inner.chain, hash), null);
      if (cached) {
        stats.hits++;
        return cached;
      }
      stats.misses++;
      const tx = await inner.getTransaction(hash, signal);
      if (tx && tx.status !== 'pending') await safe(() => store.putTransaction(tx), undefined);
      return tx;
    },
    ...(inner.getAddressTransfers
      ? {
          async getAddressTransfers(address: string, opts: { limit: number }, signal: AbortSignal) {
            const cached = await safe(() => store.getTransfers(inner.chain, address), null);
            if (cached && now() - cached.refreshedAt.getTime() < options.transfersTtlMs) {
              stats.hits++;
              return {
                transfers: cached.transfers.slice(0, opts.limit),
                truncated: cached.truncated || cached.transfers.length > opts.limit,
              };
            }
            stats.misses++;
            const fresh = await inner.getAddressTransfers!(address, opts, signal);
            const seen = new Set(fresh.transfers.map(transferKey));
            const merged = [
              ...fresh.transfers,
              ...(cached?.transfers ?? []).filter((t) => !seen.has(transferKey(t))),
            ].slice(0, keep);
            await safe(() => store.putTransfers(inner.chain, address, merged, fresh.truncated), undefined);
            return fresh;
          },
        }
      : {}),
  });

  // A job's view binds the inner client's per-job state too (the span its log reads covered).
  return {
    ...bind({ hits: 0, misses: 0 }, inner),
    forAnalysis: (stats) => bind(stats, inner.forAnalysis?.() ?? inner),
  };
}
