import type { ApiType } from '../workflow-types';
import type { Chain } from '../chains/chain';
import { crawlLimitsFor } from './crawl-limits';

/** What the engine can do per chain, known to the API before a job starts (to price and hold credits). */
export interface EngineCapabilities {
  hasChainData(chain: Chain): boolean;
  /**
   * Deepest crawl the engine would run: 0 = reference data only, 1 = the target's own on-chain facts, 1 + n = n
   * exposure hops.
   */
  plannedDepth(chain: Chain, apiType: ApiType): number;
}

export function capabilitiesFor(chainsWithData: Iterable<Chain>): EngineCapabilities {
  const chains = new Set(chainsWithData);
  return {
    hasChainData: (chain) => chains.has(chain),
    plannedDepth: (chain, apiType) => (chains.has(chain) ? 1 + crawlLimitsFor(apiType).maxHops : 0),
  };
}
