import { z } from 'zod';
import type { ScreeningConfig } from '../config';
import { type Chain, isClusteredChain, isEvmChain, isUtxoNetwork, SUPPORTED_CHAINS } from './chain';
import { EVM_NETWORKS } from './evm-networks';
import { configuredChains } from './registry';
import { UTXO_NETWORKS } from './utxo-networks';

/** What a deployment can do on one chain, from its config: what an answer on that chain will rest on. */
export const chainCapabilitySchema = z.object({
  chain: z.enum(SUPPORTED_CHAINS),
  name: z.string(),
  /** `on_chain`: an endpoint is configured; `reference_data_only`: lists and labels only, KYT answers 422. */
  reads: z.enum(['on_chain', 'reference_data_only']),
  /** KYT (a transaction) can be screened. */
  kyt: z.boolean(),
  /** KYA answers carry exposure crawled through counterparties. */
  exposure: z.boolean(),
  /** Where an address's transfers are read from; null without an endpoint. */
  historySource: z.string().nullable(),
  /** Screenings grow and read wallet clusters (common-input on the UTXO chains, EVM deposit addresses). */
  clustering: z.boolean(),
});
export type ChainCapability = z.infer<typeof chainCapabilitySchema>;

const NAMES: Partial<Record<Chain, string>> = {
  bitcoin: 'Bitcoin',
  solana: 'Solana',
  tron: 'Tron',
  ripple: 'XRP Ledger',
};

type CapabilityConfig = Parameters<typeof configuredChains>[0] & Pick<ScreeningConfig, 'EVM_HISTORY_SOURCE'>;

function historySource(chain: Chain, config: CapabilityConfig): string {
  if (isEvmChain(chain))
    return config.EVM_HISTORY_SOURCE === 'auto'
      ? 'auto: Otterscan on the node, else Etherscan with a key, else the node’s logs'
      : config.EVM_HISTORY_SOURCE;
  if (chain === 'bitcoin') return config.BITCOIN_RPC_URL ? 'bitcoin node (address index)' : 'Esplora';
  if (isUtxoNetwork(chain)) return 'Esplora';
  return { solana: 'Solana JSON-RPC', tron: 'TronGrid', ripple: 'rippled JSON-RPC' }[chain as 'solana'];
}

function displayName(chain: Chain): string {
  if (isEvmChain(chain)) return EVM_NETWORKS[chain].displayName;
  if (isUtxoNetwork(chain)) return UTXO_NETWORKS[chain].displayName;
  return NAMES[chain] ?? chain;
}

/** Every chain the engine knows, and what this deployment's endpoints let it do there. */
export function chainCapabilities(config: CapabilityConfig): ChainCapability[] {
  const configured = new Set(configuredChains(config));
  return SUPPORTED_CHAINS.map((chain) => {
    const onChain = configured.has(chain);
    return {
      chain,
      name: displayName(chain),
      reads: onChain ? 'on_chain' : 'reference_data_only',
      kyt: onChain,
      exposure: onChain,
      historySource: onChain ? historySource(chain, config) : null,
      clustering: onChain && isClusteredChain(chain),
    };
  });
}
