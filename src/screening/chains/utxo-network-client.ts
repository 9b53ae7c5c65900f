import type { UtxoNetworkChain } from './chain';
import type { ChainClient } from './chain-client';
import { createEsploraClient, type EsploraClientOptions } from './esplora-client';
import type { ProviderMetrics } from './http-provider';
import { UTXO_NETWORKS } from './utxo-networks';

/** A UTXO network's client: bitcoin's Esplora client with the network's addresses and coin (utxo-networks.ts). */
export function createUtxoNetworkClient(
  chain: UtxoNetworkChain,
  options: Omit<EsploraClientOptions, 'coin' | 'normalizeAddress' | 'queryAddress' | 'fromApi'>,
): ChainClient & { metrics(): ProviderMetrics } {
  const network = UTXO_NETWORKS[chain];
  return createEsploraClient({
    ...options,
    coin: { chain, asset: { kind: 'native', symbol: network.nativeSymbol, decimals: network.decimals } },
    normalizeAddress: network.normalize,
    queryAddress: network.queryAddress,
    fromApi: network.fromApi,
  });
}
