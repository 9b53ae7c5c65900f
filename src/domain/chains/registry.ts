import type { Config } from '../../config';
import type { Chain } from './chain';
import type { ChainClient } from './chain-client';
import { createEvmChainClient } from './evm-client';

/** One client per chain whose endpoint is configured; a chain without one is screened on the lists only. */
export function createChainClients(config: Config): Partial<Record<Chain, ChainClient>> {
  const clients: Partial<Record<Chain, ChainClient>> = {};
  const timeout = config.CHAIN_REQUEST_TIMEOUT_MS;
  if (config.ETHEREUM_RPC_URL) clients.ethereum = createEvmChainClient({ chain: 'ethereum', rpcUrl: config.ETHEREUM_RPC_URL, requestTimeoutMs: timeout });
  if (config.BSC_RPC_URL) clients['binance-smart-chain'] = createEvmChainClient({ chain: 'binance-smart-chain', rpcUrl: config.BSC_RPC_URL, requestTimeoutMs: timeout });
  return clients;
}

/** The chains with an endpoint, without building their clients (the api only needs to know which). */
export function configuredChains(config: Pick<Config, 'ETHEREUM_RPC_URL' | 'BSC_RPC_URL'>): Chain[] {
  return [...(config.ETHEREUM_RPC_URL ? (['ethereum'] as const) : []), ...(config.BSC_RPC_URL ? (['binance-smart-chain'] as const) : [])];
}
