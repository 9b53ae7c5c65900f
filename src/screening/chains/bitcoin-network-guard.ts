import type { BitcoinNetwork } from './bitcoin-address';
import type { BitcoinRpc } from './bitcoin-rpc';
import { ChainConfigurationError } from './chain-client';
import { createNodeIdentityGuard, type NodeIdentityGuard } from './node-identity-guard';

/** What `getblockchaininfo.chain` says on each network: btcd's chaincfg names, then bitcoind's. */
const CHAIN_NAMES: Readonly<Record<BitcoinNetwork, readonly string[]>> = {
  mainnet: ['mainnet', 'main'],
  testnet: ['testnet3', 'test', 'testnet4'],
  regtest: ['regtest'],
  simnet: ['simnet'],
};

/** Resolves once the node has said it runs BITCOIN_NETWORK; throws ChainConfigurationError when it runs another. */
export type BitcoinNetworkGuard = NodeIdentityGuard;

/**
 * Asks `getblockchaininfo` on first use (createNodeIdentityGuard: one shared call, the verdict kept for the client's
 * life): a mainnet deployment pointed at a regtest node would screen a ledger anyone can write.
 */
export function createBitcoinNetworkGuard(rpc: BitcoinRpc, expected: BitcoinNetwork): BitcoinNetworkGuard {
  return createNodeIdentityGuard(async (signal) => {
    const chain = (await rpc.call<{ chain?: unknown }>('getblockchaininfo', [], signal))?.chain;
    if (typeof chain === 'string' && CHAIN_NAMES[expected].includes(chain)) return null;
    return new ChainConfigurationError(
      'bitcoin',
      `BITCOIN_RPC_URL points at a node on ${typeof chain === 'string' ? chain : 'an unnamed network'}, not ` +
        `${expected} (BITCOIN_NETWORK): refusing to screen bitcoin on another network's data`,
    );
  });
}
