import { ChainConfigurationError } from './chain-client';
import { createNodeIdentityGuard, type NodeIdentityGuard } from './node-identity-guard';
import type { EvmChain, EvmRpc } from './evm-rpc';

/** The chain id each EVM chain must answer: a BSC URL set as ETHEREUM_RPC_URL would screen the wrong ledger. */
export const EVM_CHAIN_IDS: Readonly<Record<EvmChain, number>> = { ethereum: 1, 'binance-smart-chain': 56 };

const ENDPOINT_VARIABLE: Readonly<Record<EvmChain, string>> = {
  ethereum: 'ETHEREUM_RPC_URL',
  'binance-smart-chain': 'BSC_RPC_URL',
};

/** Resolves once the node has said it runs the configured chain; throws ChainConfigurationError when it runs another. */
export type ChainIdGuard = NodeIdentityGuard;

/** Asks `eth_chainId` on first use (createNodeIdentityGuard: one shared call, the verdict kept for the client's life). */
export function createChainIdGuard(chain: EvmChain, rpc: EvmRpc): ChainIdGuard {
  const expected = EVM_CHAIN_IDS[chain];
  return createNodeIdentityGuard(async (signal) => {
    const actual = Number(await rpc.request<string>('eth_chainId', [], signal));
    if (actual === expected) return null;
    const known = (Object.keys(EVM_CHAIN_IDS) as EvmChain[]).find((c) => EVM_CHAIN_IDS[c] === actual);
    return new ChainConfigurationError(
      chain,
      `${ENDPOINT_VARIABLE[chain]} points at a node for chain id ${actual}${known ? ` (${known})` : ''}, ` +
        `not ${expected} (${chain}): refusing to screen ${chain} on another chain's data`,
    );
  });
}
