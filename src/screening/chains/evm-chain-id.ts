import { ChainConfigurationError } from './chain-client';
import type { EvmChain } from './chain';
import { EVM_NETWORKS, evmNetworkOfChainId } from './evm-networks';
import type { EvmRpc } from './evm-rpc';
import { createNodeIdentityGuard, type NodeIdentityGuard } from './node-identity-guard';

/**
 * Resolves once the node has said it runs the configured chain; throws ChainConfigurationError when it runs another.
 */
export type ChainIdGuard = NodeIdentityGuard;

/**
 * Asks `eth_chainId` on first use (createNodeIdentityGuard: one shared call, the verdict kept for the client's life):
 * a BSC URL set as ETHEREUM_RPC_URL would screen the wrong ledger.
 */
export function createChainIdGuard(chain: EvmChain, rpc: EvmRpc): ChainIdGuard {
  const { chainId: expected, rpcVariable } = EVM_NETWORKS[chain];
  return createNodeIdentityGuard(async (signal) => {
    const actual = Number(await rpc.request<string>('eth_chainId', [], signal));
    if (actual === expected) return null;
    const known = evmNetworkOfChainId(actual);
    return new ChainConfigurationError(
      chain,
      `${rpcVariable} points at a node for chain id ${actual}${known ? ` (${known})` : ''}, ` +
        `not ${expected} (${chain}): refusing to screen ${chain} on another chain's data`,
    );
  });
}
