import type { PlatformConfig } from '../../platform/config/platform-config';
import type { ChainEndpointVariable, ScreeningConfig } from '../config';
import type { HttpObserver } from '../../platform/http-client/http-client';
import { createTokenBucket } from '../../platform/http-client/token-bucket';
import { createEsploraBitcoinClient } from './bitcoin-client';
import { createBitcoinRpcClient } from './bitcoin-rpc-client';
import { type Chain, EVM_CHAIN_NAMES, type EvmChain, UTXO_NETWORK_NAMES, type UtxoNetworkChain } from './chain';
import type { ChainClient } from './chain-client';
import { createEvmChainClient, type EvmClientOptions } from './evm-client';
import { EVM_NETWORKS } from './evm-networks';
import { createSolanaClient } from './solana-client';
import { createTronClient } from './tron-client';
import { createUtxoNetworkClient } from './utxo-network-client';
import { UTXO_NETWORKS } from './utxo-networks';
import { createXrplClient } from './xrpl-client';

/** The screening variables that hold an EVM network's endpoint. */
type EvmRpcVariable = Extract<ChainEndpointVariable, `${string}_RPC_URL`>;

/** Each EVM network's configured endpoint, by the variable its row names. */
const evmEndpoint = (config: Partial<Pick<ScreeningConfig, EvmRpcVariable>>, chain: EvmChain): string | undefined =>
  config[EVM_NETWORKS[chain].rpcVariable as EvmRpcVariable];

/** The screening variables that hold a UTXO network's Esplora endpoint. */
type UtxoEsploraVariable = (typeof UTXO_NETWORKS)[UtxoNetworkChain]['esploraVariable'];

/** Each UTXO network's configured endpoint, by the variable its row names. */
const utxoEndpoint = (
  config: Partial<Pick<ScreeningConfig, UtxoEsploraVariable>>,
  chain: UtxoNetworkChain,
): string | undefined => config[UTXO_NETWORKS[chain].esploraVariable];

type ChainConfig = Pick<PlatformConfig, 'HTTP_MAX_RESPONSE_BYTES'> &
  Pick<
    ScreeningConfig,
    | EvmRpcVariable
    | UtxoEsploraVariable
    | 'BITCOIN_ESPLORA_URL'
    | 'BITCOIN_RPC_URL'
    | 'BITCOIN_NETWORK'
    | 'TRON_API_URL'
    | 'TRON_API_KEY'
    | 'SOLANA_RPC_URL'
    | 'XRPL_RPC_URL'
    | 'CHAIN_REQUEST_TIMEOUT_MS'
    | 'EVM_HISTORY_SOURCE'
    | 'ETHERSCAN_API_KEY'
    | 'ETHERSCAN_API_URL'
    | 'ETHERSCAN_RATE_PER_SECOND'
    | 'EVM_LOGS_WINDOW_BLOCKS'
    | 'EVM_LOGS_MAX_WINDOWS'
  >;

/**
 * The EVM clients' transfer-source settings; one Etherscan token bucket, because the key's limit covers every chain id.
 */
function evmTransferSourceOptions(
  config: ChainConfig,
  observer: HttpObserver | undefined,
): Pick<EvmClientOptions, 'transferSourceMode' | 'etherscan' | 'logWindows'> {
  return {
    transferSourceMode: config.EVM_HISTORY_SOURCE,
    etherscan: config.ETHERSCAN_API_KEY
      ? {
          apiUrl: config.ETHERSCAN_API_URL,
          apiKey: config.ETHERSCAN_API_KEY,
          bucket: createTokenBucket(config.ETHERSCAN_RATE_PER_SECOND),
          requestTimeoutMs: config.CHAIN_REQUEST_TIMEOUT_MS,
          observer,
          maxResponseBytes: config.HTTP_MAX_RESPONSE_BYTES,
        }
      : undefined,
    logWindows: { windowBlocks: config.EVM_LOGS_WINDOW_BLOCKS, maxWindows: config.EVM_LOGS_MAX_WINDOWS },
  };
}

/**
 * Requests per second per provider, from the documented public limits (chain-data.md §4.1): public
 * Esplora and XRPL ~5/s, TronGrid with a key 10-15/s, public Solana 4/s per method. A bitcoin node is the
 * deployment's own (no public one has an address index), so it is paced for its work queue, not a quota.
 */
export const PROVIDER_RATES = { esplora: 5, xrpl: 5, trongrid: 12, solana: 4, bitcoinRpc: 20 } as const;

/**
 * One client per chain whose endpoint is configured; a chain without one is screened on the reference data only.
 * `observer` hears every provider request and failure (the worker counts them per provider).
 */
export function createChainClients(config: ChainConfig, observer?: HttpObserver): Partial<Record<Chain, ChainClient>> {
  const clients: Partial<Record<Chain, ChainClient>> = {};
  const timeout = config.CHAIN_REQUEST_TIMEOUT_MS;
  const maxResponseBytes = config.HTTP_MAX_RESPONSE_BYTES;
  const evm = { ...evmTransferSourceOptions(config, observer), observer, maxResponseBytes };
  for (const chain of EVM_CHAIN_NAMES) {
    const rpcUrl = evmEndpoint(config, chain);
    if (rpcUrl) clients[chain] = createEvmChainClient({ chain, rpcUrl, requestTimeoutMs: timeout, ...evm });
  }
  // A node with an address index is the deployment's own: preferred over Esplora when both are set.
  if (config.BITCOIN_RPC_URL)
    clients.bitcoin = createBitcoinRpcClient({
      rpcUrl: config.BITCOIN_RPC_URL,
      network: config.BITCOIN_NETWORK,
      requestTimeoutMs: timeout,
      ratePerSecond: PROVIDER_RATES.bitcoinRpc,
      observer,
      maxResponseBytes,
    });
  else if (config.BITCOIN_ESPLORA_URL)
    clients.bitcoin = createEsploraBitcoinClient({
      baseUrl: config.BITCOIN_ESPLORA_URL,
      network: config.BITCOIN_NETWORK,
      requestTimeoutMs: timeout,
      ratePerSecond: PROVIDER_RATES.esplora,
      observer,
      maxResponseBytes,
    });
  for (const chain of UTXO_NETWORK_NAMES) {
    const baseUrl = utxoEndpoint(config, chain);
    if (baseUrl)
      clients[chain] = createUtxoNetworkClient(chain, {
        baseUrl,
        requestTimeoutMs: timeout,
        ratePerSecond: PROVIDER_RATES.esplora,
        observer,
        maxResponseBytes,
      });
  }
  if (config.XRPL_RPC_URL)
    clients.ripple = createXrplClient({
      rpcUrl: config.XRPL_RPC_URL,
      requestTimeoutMs: timeout,
      ratePerSecond: PROVIDER_RATES.xrpl,
      observer,
      maxResponseBytes,
    });
  if (config.TRON_API_URL)
    clients.tron = createTronClient({
      apiUrl: config.TRON_API_URL,
      apiKey: config.TRON_API_KEY,
      requestTimeoutMs: timeout,
      ratePerSecond: PROVIDER_RATES.trongrid,
      observer,
      maxResponseBytes,
    });
  if (config.SOLANA_RPC_URL)
    clients.solana = createSolanaClient({
      rpcUrl: config.SOLANA_RPC_URL,
      requestTimeoutMs: timeout,
      ratePerSecond: PROVIDER_RATES.solana,
      observer,
      maxResponseBytes,
    });
  return clients;
}

/** The chains with an endpoint, without building their clients (the api only needs to know which). */
export function configuredChains(config: Partial<ChainConfig>): Chain[] {
  const endpoints: [Chain, string | undefined][] = [
    ...EVM_CHAIN_NAMES.map((chain): [Chain, string | undefined] => [chain, evmEndpoint(config, chain)]),
    ['bitcoin', config.BITCOIN_RPC_URL ?? config.BITCOIN_ESPLORA_URL],
    ...UTXO_NETWORK_NAMES.map((chain): [Chain, string | undefined] => [chain, utxoEndpoint(config, chain)]),
    ['ripple', config.XRPL_RPC_URL],
    ['tron', config.TRON_API_URL],
    ['solana', config.SOLANA_RPC_URL],
  ];
  return endpoints.filter(([, url]) => Boolean(url)).map(([chain]) => chain);
}
