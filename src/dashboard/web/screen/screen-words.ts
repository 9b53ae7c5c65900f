/** The words the screening views use for the API's codes. */

/**
 * The chains the engine knows (src/screening/chains/chain.ts SUPPORTED_CHAINS; the EVM and UTXO networks' names as in
 * src/screening/chains/evm-networks.ts and utxo-networks.ts), with their display names.
 */
export const CHAINS = [
  ['ethereum', 'Ethereum'],
  ['bitcoin', 'Bitcoin'],
  ['binance-smart-chain', 'BNB Smart Chain'],
  ['arbitrum', 'Arbitrum One'],
  ['base', 'Base'],
  ['optimism', 'OP Mainnet'],
  ['polygon', 'Polygon PoS'],
  ['avalanche', 'Avalanche C-Chain'],
  ['linea', 'Linea'],
  ['litecoin', 'Litecoin'],
  ['bitcoin-cash', 'Bitcoin Cash'],
  ['dogecoin', 'Dogecoin'],
  ['tron', 'Tron'],
  ['solana', 'Solana'],
  ['ripple', 'XRP Ledger'],
] as const;

export const chainName = (chain: string): string => CHAINS.find(([id]) => id === chain)?.[1] ?? chain;

const RULE_NAMES: Record<string, string> = {
  is_sanctioned: 'On a sanctions list',
  is_blacklisted: 'Frozen by a stablecoin issuer',
  tag_score: 'Labels and exposure',
  address_type: 'Address type',
  active_duration: 'Account age',
  receive_count: 'Inbound transfers',
};

export const ruleName = (rule: string): string => RULE_NAMES[rule] ?? rule.replace(/_/g, ' ');

const STOP_WORDS: Record<string, string> = {
  sanctioned: 'sanctioned: not followed further',
  labelled: 'labelled: not followed further',
  hub: 'busy hub: not followed further',
  deadline: 'time ran out here',
  last_hop: 'last hop of the crawl',
};

export const stopWords = (stop: string | null | undefined): string =>
  stop ? (STOP_WORDS[stop] ?? stop.replace(/_/g, ' ')) : '';

export const STATUS_WORDS = {
  queued: 'Queued: the analysis is running…',
  completed: 'Completed',
  failed: 'Failed',
} as const;

/** 0x4f47bc496083c727c5fbe3ce9cdf2b0f6496270c → 0x4f47…270c, for graph labels where space is short. */
export const shortAddress = (address: string): string =>
  address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address;

export const usd = (value: number | null | undefined): string =>
  typeof value === 'number'
    ? value.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 })
    : '—';

export const timeOf = (ms: number | string): string =>
  new Date(ms).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** A transaction hash shortened for a narrow panel (the full one goes in a title attribute beside it). */
export const shortHash = (hash: string): string =>
  hash.length > 20 ? `${hash.slice(0, 10)}…` + `${hash.slice(-6)}` : hash;

const HEURISTIC_WORDS: Record<string, string> = {
  common_input: 'spent together (common input)',
  deposit_address: 'deposit → hot wallet',
};

/** How a merge of wallet clusters was shown, in words (src/entities/domain/cluster-link.ts LinkHeuristic). */
export const heuristicWords = (heuristic: string): string => HEURISTIC_WORDS[heuristic] ?? heuristic.replace(/_/g, ' ');

/** The two addresses a merge joined: a deposit forwards to its hot wallet; common inputs are spent side by side. */
export const mergeJoiner = (heuristic: string): string => (heuristic === 'deposit_address' ? '→' : '+');

const SOURCE_WORDS: Record<string, string> = { custom: 'your own list' };

export const sourceWords = (source: string | null): string =>
  source === null ? 'source not given' : (SOURCE_WORDS[source] ?? source);
