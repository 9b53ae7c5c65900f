import { type BitcoinNetwork, normalizeBitcoinAddress } from './bitcoin-address';
import type { ChainClient } from './chain-client';
import { createEsploraClient, type EsploraClientOptions } from './esplora-client';
import type { ProviderMetrics } from './http-provider';
import { BITCOIN_COIN } from './utxo-flows';

export type EsploraBitcoinClientOptions = Omit<
  EsploraClientOptions,
  'coin' | 'normalizeAddress' | 'queryAddress' | 'fromApi'
> & {
  /** BITCOIN_NETWORK: the addresses accepted (mainnet, the default, also takes testnet forms). */
  network?: BitcoinNetwork;
};

/** Bitcoin over Esplora (electrs, mempool.space, blockstream.info): the network's addresses, amounts in satoshis. */
export function createEsploraBitcoinClient(
  options: EsploraBitcoinClientOptions,
): ChainClient & { metrics(): ProviderMetrics } {
  const { network, ...rest } = options;
  return createEsploraClient({
    ...rest,
    coin: BITCOIN_COIN,
    normalizeAddress: (raw) => normalizeBitcoinAddress(raw, network),
  });
}
