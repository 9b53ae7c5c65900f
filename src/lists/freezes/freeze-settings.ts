import { EVM_CHAIN_NAMES, EVM_NETWORKS, type EvmChain, type ScreeningConfig } from '../../screening';
import type { ListsConfig } from '../config';
import { ISSUER_FREEZE_CONTRACTS } from './evm-freeze-contracts';
import type { FreezeContract } from './freeze-store';
import type { FreezeSource } from './freeze-sync-types';
import type { EvmFreezeSettings } from './sync-evm-freezes';
import type { TronFreezeSettings } from './sync-tron-freezes';

/** The screening variables that hold a chain's JSON-RPC endpoint (EVM_NETWORKS names each EVM network's). */
type RpcVariable = Extract<keyof ScreeningConfig, `${string}_RPC_URL`>;

export type FreezeConfig = Pick<
  ScreeningConfig,
  RpcVariable | 'TRON_API_URL' | 'TRON_API_KEY' | 'CHAIN_REQUEST_TIMEOUT_MS'
> &
  Pick<
    ListsConfig,
    | 'FREEZES_CONFIRMATIONS'
    | 'FREEZES_START_BLOCK'
    | 'FREEZES_WINDOW_BLOCKS'
    | 'FREEZES_TRON_START_AT'
    | 'FREEZES_EVM_CONTRACTS'
    | 'FREEZES_USDT_ETHEREUM_CONTRACT'
    | 'FREEZES_USDC_ETHEREUM_CONTRACT'
    | 'FREEZES_USDT_TRON_CONTRACT'
  >;

/** One EVM network read, with its node. */
export type EvmNodeFreezeSettings = EvmFreezeSettings & { rpcUrl: string; timeoutMs: number };

/** What the freeze sync reads, and from where: the EVM networks with a node and a contract; TRON or null. */
export interface FreezeSyncSettings {
  evm: Partial<Record<EvmChain, EvmNodeFreezeSettings>>;
  tron: (TronFreezeSettings & { apiUrl: string; apiKey?: string; timeoutMs: number }) | null;
}

/**
 * A network's contracts: FREEZES_EVM_CONTRACTS over (Ethereum's older variables over) the issuer table; `off`
 * drops one.
 */
function contractsOn(config: FreezeConfig, chain: EvmChain): FreezeContract[] {
  const older =
    chain === 'ethereum'
      ? { USDT: config.FREEZES_USDT_ETHEREUM_CONTRACT, USDC: config.FREEZES_USDC_ETHEREUM_CONTRACT }
      : {};
  const override = config.FREEZES_EVM_CONTRACTS[chain] ?? {};
  return (['USDT', 'USDC'] as const).flatMap((token) => {
    const contract = override[token] ?? older[token] ?? ISSUER_FREEZE_CONTRACTS[chain][token];
    return contract && contract !== 'off' ? [{ chain, token, contract }] : [];
  });
}

/** Where a network's contracts without a cursor start: its `startBlock`, FREEZES_START_BLOCK on Ethereum, or null. */
function startBlockOn(config: FreezeConfig, chain: EvmChain): bigint | null {
  const start =
    config.FREEZES_EVM_CONTRACTS[chain]?.startBlock ?? (chain === 'ethereum' ? config.FREEZES_START_BLOCK : undefined);
  return start === undefined ? null : BigInt(start);
}

function evmFreezeSettings(config: FreezeConfig): FreezeSyncSettings['evm'] {
  const evm: FreezeSyncSettings['evm'] = {};
  for (const chain of EVM_CHAIN_NAMES) {
    const { chainId, rpcVariable } = EVM_NETWORKS[chain];
    const rpcUrl = config[rpcVariable as RpcVariable];
    const contracts = contractsOn(config, chain);
    if (!rpcUrl || contracts.length === 0) continue;
    evm[chain] = {
      chain,
      chainId,
      rpcVariable,
      rpcUrl,
      timeoutMs: config.CHAIN_REQUEST_TIMEOUT_MS,
      contracts,
      confirmations: config.FREEZES_CONFIRMATIONS,
      windowBlocks: config.FREEZES_WINDOW_BLOCKS,
      startBlock: startBlockOn(config, chain),
    };
  }
  return evm;
}

export function freezeSyncSettings(config: FreezeConfig): FreezeSyncSettings {
  const tronContract = config.FREEZES_USDT_TRON_CONTRACT;
  return {
    evm: evmFreezeSettings(config),
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

/** The chains a run reads: those with a node and at least one contract, the EVM networks first. */
export const freezeSources = (settings: FreezeSyncSettings): FreezeSource[] => [
  ...EVM_CHAIN_NAMES.filter((chain) => settings.evm[chain] !== undefined),
  ...(settings.tron ? (['tron'] as const) : []),
];
