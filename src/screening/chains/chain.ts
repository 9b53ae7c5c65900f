/**
 * The EVM networks the engine knows: the same engine, history sources, token decoding and address format on each
 * (their chain ids, native assets and endpoint variables: evm-networks.ts). A network is added there and here.
 */
export const EVM_CHAIN_NAMES = [
  'ethereum',
  'binance-smart-chain',
  'arbitrum',
  'base',
  'optimism',
  'polygon',
  'avalanche',
  'linea',
] as const;
export type EvmChain = (typeof EVM_CHAIN_NAMES)[number];

/**
 * The UTXO networks beside bitcoin: bitcoin's engine, flows and common-input clustering over an Esplora-compatible
 * API, each with its own address forms (utxo-networks.ts). Bitcoin is not among them: it has its own network setting
 * (BITCOIN_NETWORK) and a node client besides Esplora.
 */
export const UTXO_NETWORK_NAMES = ['litecoin', 'bitcoin-cash', 'dogecoin'] as const;
export type UtxoNetworkChain = (typeof UTXO_NETWORK_NAMES)[number];

/** The chains the analysis engine knows. The job API takes a free string; anything else is a 400. */
export const SUPPORTED_CHAINS = [
  'bitcoin',
  ...UTXO_NETWORK_NAMES,
  ...EVM_CHAIN_NAMES,
  'solana',
  'tron',
  'ripple',
] as const;
export type Chain = (typeof SUPPORTED_CHAINS)[number];

export const EVM_CHAINS: readonly Chain[] = EVM_CHAIN_NAMES;

export function isSupportedChain(value: string): value is Chain {
  return (SUPPORTED_CHAINS as readonly string[]).includes(value);
}

export function isEvmChain(chain: string): chain is EvmChain {
  return (EVM_CHAIN_NAMES as readonly string[]).includes(chain);
}

export function isUtxoNetwork(chain: string): chain is UtxoNetworkChain {
  return (UTXO_NETWORK_NAMES as readonly string[]).includes(chain);
}

/** Bitcoin and the UTXO networks: transactions of inputs and outputs, where common-input ownership applies. */
export const isUtxoChain = (chain: string): boolean => chain === 'bitcoin' || isUtxoNetwork(chain);

/**
 * The chains whose screenings grow wallet clusters (src/entities): common-input ownership on every UTXO chain, the
 * deposit-address heuristic on the EVM networks. Tron, Solana and XRP Ledger have no heuristic yet.
 */
export const isClusteredChain = (chain: string): boolean => isUtxoChain(chain) || isEvmChain(chain);
