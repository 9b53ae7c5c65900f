import path from 'node:path';
import type { Pool } from 'pg';
import type { PlatformConfig } from '../../platform/config/platform-config';
import type { FeaturePorts } from '../../platform/features/feature-ports';
import type { HttpObserver } from '../../platform/http-client/http-client';
import { createStoredCloses } from '../../market';
import { createCachingChainClient } from '../chains/cached-client';
import type { Chain } from '../chains/chain';
import { createChainCacheStore, type ChainCacheStore } from '../chains/chain-cache-store';
import type { ChainClient } from '../chains/chain-client';
import { createChainClients } from '../chains/registry';
import type { ScreeningConfig } from '../config';
import { createScreeningEngine, type ScreeningEngine } from './engine';
import { loadPriceBook } from './prices';
import { createReferenceData } from './reference-data';
import { loadRiskModel } from './risk-model';

/**
 * Every chain client behind the chain cache. Default TTL an hour: exposure far from the screened address changes
 * slowly, and a re-run after a list update then needs no chain calls.
 */
function withChainCache(
  clients: Partial<Record<Chain, ChainClient>>,
  store: ChainCacheStore,
  transfersTtlMs: number,
): Partial<Record<Chain, ChainClient>> {
  return Object.fromEntries(
    Object.entries(clients).map(([chain, client]) => [
      chain,
      createCachingChainClient(client, store, { transfersTtlMs }),
    ]),
  );
}

/**
 * The engine a worker screens with: the reference data in Postgres, the configured chain clients (their calls
 * counted by `chainCalls`), the risk model and reference prices of REFERENCE_DATA_DIR, the stored candle closes, and
 * what other features offer through their ports (the account's own labels, wallet clusters).
 */
export function configuredEngine(deps: {
  config: ScreeningConfig & Pick<PlatformConfig, 'HTTP_MAX_RESPONSE_BYTES'>;
  pool: Pool;
  ports: Pick<FeaturePorts, 'customLabels' | 'clusters'>;
  chainCalls: HttpObserver;
}): ScreeningEngine {
  const { config, pool, ports } = deps;
  return createScreeningEngine({
    referenceData: createReferenceData(pool),
    chainClients: withChainCache(
      createChainClients(config, deps.chainCalls),
      createChainCacheStore(pool),
      config.CHAIN_CACHE_TRANSFERS_TTL_MS,
    ),
    prices: loadPriceBook(path.join(config.REFERENCE_DATA_DIR, '..', 'prices', 'usd-reference-prices.json')),
    model: loadRiskModel(config.REFERENCE_DATA_DIR),
    storedCloses: createStoredCloses(pool),
    // The accounts' own lists: each screening reads its account's labels only (analyzeTarget passes accountId).
    customLabels: ports.customLabels,
    // Wallet clusters: each screening grows its parties' and crawled addresses' clusters within its call budget.
    clusters: ports.clusters,
  });
}
