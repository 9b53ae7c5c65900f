import type { EvmChain } from './chain';

/** What makes one EVM network screenable: the node must answer its chain id, its native asset is priced by symbol. */
export interface EvmNetwork {
  /** What `eth_chainId` must answer: an endpoint of another network is refused, never screened as this one. */
  readonly chainId: number;
  /** The native asset's symbol (priced by the reference prices and the stored closes). */
  readonly nativeSymbol: string;
  /** The screening variable that holds its JSON-RPC endpoint. */
  readonly rpcVariable: string;
  /** Its display name. */
  readonly displayName: string;
}

/**
 * Every EVM network the service screens. A network is one row here, its name in EVM_CHAIN_NAMES (chain.ts) and its
 * endpoint variable in the screening config: the engine, the history sources (a node's logs, Otterscan, Etherscan's
 * multichain API by chain id), token decoding and the shared 0x address key (a listed address matches on every EVM
 * network) then apply as they do on Ethereum.
 */
export const EVM_NETWORKS: Readonly<Record<EvmChain, EvmNetwork>> = {
  ethereum: {
    chainId: 1,
    nativeSymbol: 'ETH',
    rpcVariable: 'ETHEREUM_RPC_URL',
    displayName: 'Ethereum',
  },
  'binance-smart-chain': {
    chainId: 56,
    nativeSymbol: 'BNB',
    rpcVariable: 'BSC_RPC_URL',
    displayName: 'BNB Smart Chain',
  },
  arbitrum: {
    chainId: 42161,
    nativeSymbol: 'ETH',
    rpcVariable: 'ARBITRUM_RPC_URL',
    displayName: 'Arbitrum One',
  },
  base: { chainId: 8453, nativeSymbol: 'ETH', rpcVariable: 'BASE_RPC_URL', displayName: 'Base' },
  optimism: {
    chainId: 10,
    nativeSymbol: 'ETH',
    rpcVariable: 'OPTIMISM_RPC_URL',
    displayName: 'OP Mainnet',
  },
  polygon: {
    chainId: 137,
    nativeSymbol: 'POL',
    rpcVariable: 'POLYGON_RPC_URL',
    displayName: 'Polygon PoS',
  },
  avalanche: {
    chainId: 43114,
    nativeSymbol: 'AVAX',
    rpcVariable: 'AVALANCHE_RPC_URL',
    displayName: 'Avalanche C-Chain',
  },
  linea: { chainId: 59144, nativeSymbol: 'ETH', rpcVariable: 'LINEA_RPC_URL', displayName: 'Linea' },
};

/** The network whose chain id this is, if the service knows it (to name the network a wrong endpoint serves). */
export function evmNetworkOfChainId(chainId: number): EvmChain | undefined {
  return (Object.keys(EVM_NETWORKS) as EvmChain[]).find((chain) => EVM_NETWORKS[chain].chainId === chainId);
}
