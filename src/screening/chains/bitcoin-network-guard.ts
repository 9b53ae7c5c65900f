import { raceSignal } from '../../platform/abort/deadline';
import type { BitcoinNetwork } from './bitcoin-address';
import type { BitcoinRpc } from './bitcoin-rpc';
import { ChainConfigurationError, ChainUnavailableError } from './chain-client';

/** What `getblockchaininfo.chain` says on each network: btcd's chaincfg names, then bitcoind's. */
const CHAIN_NAMES: Readonly<Record<BitcoinNetwork, readonly string[]>> = {
  mainnet: ['mainnet', 'main'],
  testnet: ['testnet3', 'test', 'testnet4'],
  regtest: ['regtest'],
  simnet: ['simnet'],
};

export interface BitcoinNetworkGuard {
  /** Resolves once the node has said it runs BITCOIN_NETWORK; throws ChainConfigurationError when it runs another. */
  ensure(signal: AbortSignal): Promise<void>;
}

/**
 * Asks `getblockchaininfo` on first use (one call, shared by concurrent callers): a mainnet deployment pointed at a
 * regtest node would screen a ledger anyone can write. A match is remembered for the client's life and so is a
 * mismatch; no answer (outage, timeout) proves nothing, so the call goes ahead and the next use asks again.
 */
export function createBitcoinNetworkGuard(rpc: BitcoinRpc, expected: BitcoinNetwork): BitcoinNetworkGuard {
  let verdict: 'match' | ChainConfigurationError | undefined;
  let pending: Promise<void> | undefined;

  async function ask(signal: AbortSignal): Promise<void> {
    let chain: unknown;
    try {
      chain = (await rpc.call<{ chain?: unknown }>('getblockchaininfo', [], signal))?.chain;
    } catch (err) {
      // The asking caller's deadline is not the others' (they share this call): nobody learns anything. Refused
      // credentials (ChainConfigurationError) go to the caller as they are.
      if (signal.aborted || err instanceof ChainUnavailableError) return;
      throw err;
    }
    if (typeof chain === 'string' && CHAIN_NAMES[expected].includes(chain)) {
      verdict = 'match';
      return;
    }
    verdict = new ChainConfigurationError(
      'bitcoin',
      `BITCOIN_RPC_URL points at a node on ${typeof chain === 'string' ? chain : 'an unnamed network'}, not ` +
        `${expected} (BITCOIN_NETWORK): refusing to screen bitcoin on another network's data`,
    );
  }

  return {
    async ensure(signal) {
      if (verdict === undefined) {
        pending ??= ask(signal).finally(() => {
          pending = undefined;
        });
        await raceSignal(pending, signal);
      }
      if (verdict instanceof ChainConfigurationError) throw verdict;
    },
  };
}
