import type { Chain } from './chain';

/** One asset as the engine sees it: the chain's native coin or a token contract. */
export type Asset =
  | { kind: 'native'; symbol: string; decimals: number }
  | { kind: 'token'; standard: 'erc20'; contract: string; symbol: string | null; decimals: number | null };

/** One value movement inside a transaction, normalised across chains (amount in base units). */
export interface Transfer {
  from: string | null;
  to: string | null;
  asset: Asset;
  amount: bigint;
  /** Where the movement was read from: the tx value itself or a Transfer log. */
  source: 'native' | 'log';
  index: number;
}

export interface ChainTransaction {
  chain: Chain;
  hash: string;
  status: 'success' | 'failed' | 'pending';
  blockNumber: bigint | null;
  /** Unix seconds of the including block, null while pending. */
  timestamp: number | null;
  from: string;
  to: string | null;
  transfers: Transfer[];
}

/** What the address's own history says; null fields mean the node could not tell (no history API). */
export interface AddressHistory {
  firstSeen: number | null;
  lastSeen: number | null;
  /** Transactions in which the address received native value or tokens (within the sampled window). */
  inboundCount: number | null;
  /** Distinct counterparties that sent value to the address, newest first, at most `limit`. */
  inboundCounterparties: { address: string; asset: Asset; amount: bigint }[];
  /** True when the history was cut at the page limit, so counts are lower bounds. */
  truncated: boolean;
}

export interface AddressFacts {
  address: string;
  isContract: boolean;
  nativeBalance: bigint;
  tokenBalances: { asset: Asset; amount: bigint }[];
  /** Outgoing transaction count (EVM nonce). */
  outgoingCount: number;
  history: AddressHistory | null;
}

/** A real client for one chain. Every call takes the crawl's AbortSignal so crawlTimeout is a hard deadline. */
export interface ChainClient {
  readonly chain: Chain;
  readonly nativeAsset: Extract<Asset, { kind: 'native' }>;
  /** Canonical form used as the key into the reference lists; throws InvalidAddressError. */
  normalizeAddress(raw: string): string;
  /** null when the node does not know the transaction. */
  getTransaction(hash: string, signal: AbortSignal): Promise<ChainTransaction | null>;
  getAddressFacts(address: string, options: { tokens: string[]; historyLimit: number }, signal: AbortSignal): Promise<AddressFacts>;
}

export class InvalidAddressError extends Error {
  constructor(readonly chain: Chain, readonly address: string) {
    super(`"${address}" is not a valid ${chain} address`);
    this.name = 'InvalidAddressError';
  }
}

/** The node could not be reached or answered with an error; retrying later may succeed. */
export class ChainUnavailableError extends Error {
  constructor(readonly chain: Chain, message: string, override readonly cause?: unknown) {
    super(message);
    this.name = 'ChainUnavailableError';
  }
}
