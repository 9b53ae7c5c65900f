import {
  ChainConfigurationError,
  type AddressHistory,
  type AddressTransfer,
  type HistorySourceReport,
} from './chain-client';
import type { EvmChain } from './evm-rpc';

/** EVM_HISTORY_SOURCE: `auto` picks Otterscan when the node has ots_*, else Etherscan when a key is set, else logs. */
import { EVM_HISTORY_MODES } from '../config';

export { EVM_HISTORY_MODES };
export type EvmHistoryMode = (typeof EVM_HISTORY_MODES)[number];

/** One way of reading an EVM address's history. */
export interface EvmHistorySource {
  describe(signal: AbortSignal): Promise<HistorySourceReport>;
  /** null when the source cannot state first-seen time or inbound counts truthfully (a window of logs). */
  history(
    address: string,
    options: { pageSize: number; historyLimit: number },
    signal: AbortSignal,
  ): Promise<AddressHistory | null>;
  transfers(
    address: string,
    options: { limit: number },
    signal: AbortSignal,
  ): Promise<{ transfers: AddressTransfer[]; truncated: boolean }>;
}

export interface HistorySourceChoice {
  chain: EvmChain;
  mode: EvmHistoryMode;
  /** Whether the node answers ots_getApiLevel (asked once per client). */
  hasOts(signal: AbortSignal): Promise<boolean>;
  otterscan: EvmHistorySource;
  /** Present when ETHERSCAN_API_KEY is set. */
  etherscan: EvmHistorySource | undefined;
  logs: EvmHistorySource;
}

/**
 * The source for this chain, per EVM_HISTORY_SOURCE. A forced source that cannot work (otterscan on
 * a node without ots_*, etherscan without a key) is a configuration error, not a silent fallback:
 * the operator asked for that source's coverage.
 */
export async function pickHistorySource(c: HistorySourceChoice, signal: AbortSignal): Promise<EvmHistorySource> {
  switch (c.mode) {
    case 'otterscan':
      if (!(await c.hasOts(signal)))
        throw new ChainConfigurationError(
          c.chain,
          `EVM_HISTORY_SOURCE=otterscan, but the ${c.chain} node has no ots_ API (ots_getApiLevel)`,
        );
      return c.otterscan;
    case 'etherscan':
      if (!c.etherscan)
        throw new ChainConfigurationError(c.chain, 'EVM_HISTORY_SOURCE=etherscan needs ETHERSCAN_API_KEY');
      return c.etherscan;
    case 'logs':
      return c.logs;
    case 'auto':
      if (await c.hasOts(signal)) return c.otterscan;
      return c.etherscan ?? c.logs;
  }
}
