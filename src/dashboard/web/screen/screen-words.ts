/** The words the screening views use for the API's codes. */

/** The six chains the engine knows (src/screening/chains/chain.ts SUPPORTED_CHAINS), with their display names. */
export const CHAINS = [
  ['ethereum', 'Ethereum'],
  ['bitcoin', 'Bitcoin'],
  ['binance-smart-chain', 'BNB Smart Chain'],
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
