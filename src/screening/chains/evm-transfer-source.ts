import {
  ChainConfigurationError,
  type TransferSummary,
  type AddressTransfer,
  type TransferSourceReport,
} from './chain-client';
import type { EvmChain } from './evm-rpc';

/** EVM_HISTORY_SOURCE: `auto` picks Otterscan when the node has ots_*, else Etherscan when a key is set, else logs. */
import { EVM_TRANSFER_SOURCE_MODES } from '../config';

export { EVM_TRANSFER_SOURCE_MODES };
export type EvmTransferSourceMode = (typeof EVM_TRANSFER_SOURCE_MODES)[number];

/** One way of reading an EVM address's transfers. */
export interface EvmTransferSource {
  describe(signal: AbortSignal): Promise<TransferSourceReport>;
  /** null when the source cannot state first-seen time or inbound counts truthfully (a window of logs). */
  transferSummary(
    address: string,
    options: { pageSize: number; transferLimit: number },
    signal: AbortSignal,
  ): Promise<TransferSummary | null>;
  transfers(
    address: string,
    options: { limit: number },
    signal: AbortSignal,
  ): Promise<{ transfers: AddressTransfer[]; truncated: boolean }>;
}

export interface TransferSourceChoice {
  chain: EvmChain;
  mode: EvmTransferSourceMode;
  /** Whether the node answers ots_getApiLevel (asked once per client). */
  hasOts(signal: AbortSignal): Promise<boolean>;
  otterscan: EvmTransferSource;
  /** Present when ETHERSCAN_API_KEY is set. */
  etherscan: EvmTransferSource | undefined;
  logs: EvmTransferSource;
}

/**
 * The source for this chain, per EVM_HISTORY_SOURCE. A forced source that cannot work (otterscan on
 * a node without ots_*, etherscan without a key) is a configuration error, not a silent fallback:
 * the operator asked for that source's coverage.
 */
export async function pickTransferSource(c: TransferSourceChoice, signal: AbortSignal): Promise<EvmTransferSource> {
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
