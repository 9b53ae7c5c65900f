/** The chains the analysis engine knows. The job API takes a free string; anything else is a 400. */
export const SUPPORTED_CHAINS = ['bitcoin', 'ethereum', 'solana', 'binance-smart-chain', 'tron', 'ripple'] as const;
export type Chain = (typeof SUPPORTED_CHAINS)[number];

export const EVM_CHAINS: readonly Chain[] = ['ethereum', 'binance-smart-chain'];

export function isSupportedChain(value: string): value is Chain {
  return (SUPPORTED_CHAINS as readonly string[]).includes(value);
}
