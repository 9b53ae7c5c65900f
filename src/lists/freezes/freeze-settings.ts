import type { ScreeningConfig } from '../../screening';
import type { ListsConfig } from '../config';
import type { FreezeContract } from './freeze-store';
import type { FreezeSource } from './freeze-sync-types';
import type { EthereumFreezeSettings } from './sync-ethereum-freezes';
import type { TronFreezeSettings } from './sync-tron-freezes';

export type FreezeConfig = Pick<
  ScreeningConfig,
  'ETHEREUM_RPC_URL' | 'TRON_API_URL' | 'TRON_API_KEY' | 'CHAIN_REQUEST_TIMEOUT_MS'
> &
  Pick<
    ListsConfig,
    | 'FREEZES_CONFIRMATIONS'
    | 'FREEZES_START_BLOCK'
    | 'FREEZES_WINDOW_BLOCKS'
    | 'FREEZES_TRON_START_AT'
    | 'FREEZES_USDT_ETHEREUM_CONTRACT'
    | 'FREEZES_USDC_ETHEREUM_CONTRACT'
    | 'FREEZES_USDT_TRON_CONTRACT'
  >;

/** What the freeze sync reads, and from where; a chain is null when its node or contracts are not configured. */
export interface FreezeSyncSettings {
  ethereum: (EthereumFreezeSettings & { rpcUrl: string; timeoutMs: number }) | null;
  tron: (TronFreezeSettings & { apiUrl: string; apiKey?: string; timeoutMs: number }) | null;
}

export function freezeSyncSettings(config: FreezeConfig): FreezeSyncSettings {
  const ethereumContracts: FreezeContract[] = [
    { chain: 'ethereum' as const, token: 'USDT' as const, contract: config.FREEZES_USDT_ETHEREUM_CONTRACT },
    { chain: 'ethereum' as const, token: 'USDC' as const, contract: config.FREEZES_USDC_ETHEREUM_CONTRACT },
  ].filter((c) => c.contract !== 'off');
  const tronContract = config.FREEZES_USDT_TRON_CONTRACT;
  return {
    ethereum:
      config.ETHEREUM_RPC_URL && ethereumContracts.length > 0
        ? {
            rpcUrl: config.ETHEREUM_RPC_URL,
            timeoutMs: config.CHAIN_REQUEST_TIMEOUT_MS,
            contracts: ethereumContracts,
            confirmations: config.FREEZES_CONFIRMATIONS,
            windowBlocks: config.FREEZES_WINDOW_BLOCKS,
            startBlock: config.FREEZES_START_BLOCK === undefined ? null : BigInt(config.FREEZES_START_BLOCK),
          }
        : null,
    tron:
      config.TRON_API_URL && tronContract !== 'off'
        ? {
            apiUrl: config.TRON_API_URL,
            apiKey: config.TRON_API_KEY,
            timeoutMs: config.CHAIN_REQUEST_TIMEOUT_MS,
            contract: { chain: 'tron', token: 'USDT', contract: tronContract },
            startAt: config.FREEZES_TRON_START_AT ? Date.parse(config.FREEZES_TRON_START_AT) : null,
          }
        : null,
  };
}

/** The chains a run reads: those with a node and at least one contract. */
export const freezeSources = (settings: FreezeSyncSettings): FreezeSource[] =>
  (['ethereum', 'tron'] as const).filter((source) => settings[source] !== null);
