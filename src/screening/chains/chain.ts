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

/** The chains the analysis engine knows. The job API takes a free string; anything else is a 400. */
export const SUPPORTED_CHAINS = ['bitcoin', ...EVM_CHAIN_NAMES, 'solana', 'tron', 'ripple'] as const;
export type Chain = (typeof SUPPORTED_CHAINS)[number];

export const EVM_CHAINS: readonly Chain[] = EVM_CHAIN_NAMES;

export function isSupportedChain(value: string): value is Chain {
  return (SUPPORTED_CHAINS as readonly string[]).includes(value);
}

export function isEvmChain(chain: string): chain is EvmChain {
  return (EVM_CHAIN_NAMES as readonly string[]).includes(chain);
}
