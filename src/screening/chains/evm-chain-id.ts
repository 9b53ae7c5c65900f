import { ChainConfigurationError, ChainUnavailableError } from './chain-client';
import { raceSignal } from '../../platform/abort/deadline';
import type { EvmChain, EvmRpc } from './evm-rpc';

/** The chain id each EVM chain must answer: a BSC URL set as ETHEREUM_RPC_URL would screen the wrong ledger. */
export const EVM_CHAIN_IDS: Readonly<Record<EvmChain, number>> = { ethereum: 1, 'binance-smart-chain': 56 };

const ENDPOINT_VARIABLE: Readonly<Record<EvmChain, string>> = {
  ethereum: 'ETHEREUM_RPC_URL',
  'binance-smart-chain': 'BSC_RPC_URL',
};

export interface ChainIdGuard {
  /**
   * Resolves once the node has said it runs the configured chain; throws ChainConfigurationError when it runs another.
   */
  ensure(signal: AbortSignal): Promise<void>;
}

/**
 * Asks `eth_chainId` on first use (one call, shared by concurrent callers). A match is remembered for
 * the client's life and so is a mismatch; no answer (outage, timeout) proves nothing, so the call goes
 * ahead and fails, or succeeds, on its own, and the next use asks again.
 */
export function createChainIdGuard(chain: EvmChain, rpc: EvmRpc): ChainIdGuard {
  const expected = EVM_CHAIN_IDS[chain];
  let verdict: 'match' | ChainConfigurationError | undefined;
  let pending: Promise<void> | undefined;

  async function ask(signal: AbortSignal): Promise<void> {
    let answered: string;
    try {
      answered = await rpc.request<string>('eth_chainId', [], signal);
    } catch (err) {
      // The asking caller's deadline is not the others' (they share this call): nobody learns anything.
      if (signal.aborted || err instanceof ChainUnavailableError) return;
      throw err;
    }
    const actual = Number(answered);
    if (actual === expected) {
      verdict = 'match';
      return;
    }
    const known = (Object.keys(EVM_CHAIN_IDS) as EvmChain[]).find((c) => EVM_CHAIN_IDS[c] === actual);
    verdict = new ChainConfigurationError(
      chain,
      `${ENDPOINT_VARIABLE[chain]} points at a node for chain id ${actual}${known ? ` (${known})` : ''}, ` +
        `not ${expected} (${chain}): refusing to screen ${chain} on another chain's data`,
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
