import type { Chain } from './chain';
import { AppError } from '../../platform/errors';
import { SCREENING_ERRORS } from '../error-codes';

/** One asset as the engine sees it: the chain's native coin or a token contract. */
export type Asset =
  | { kind: 'native'; symbol: string; decimals: number }
  | { kind: 'token'; standard: TokenStandard; contract: string; symbol: string | null; decimals: number | null };

/**
 * Token kinds across the chains; `contract` holds the token's id (contract, mint, TRC-10 id, XRPL currency.issuer).
 */
export type TokenStandard = 'erc20' | 'trc20' | 'trc10' | 'spl' | 'xrpl-iou';

/** One value movement inside a transaction, normalised across chains (amount in base units). */
export interface Transfer {
  from: string | null;
  to: string | null;
  asset: Asset;
  amount: bigint;
  /**
   * Where the movement was read from: the tx value, a Transfer log, a UTXO, a balance
   * difference, XRPL delivered_amount.
   */
  source: 'native' | 'log' | 'utxo' | 'balance-diff' | 'delivered_amount' | 'internal';
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

/**
 * What an address's own transfers say (its newest page of them): first and last seen, inbound count, who sent to it.
 * Null fields mean the node could not tell (no address index).
 */
export interface TransferSummary {
  firstSeen: number | null;
  lastSeen: number | null;
  /** Transactions in which the address received native value or tokens (within the sampled window). */
  inboundCount: number | null;
  /** Distinct counterparties that sent value to the address, newest first, at most `limit`. */
  inboundCounterparties: { address: string; asset: Asset; amount: bigint }[];
  /** True when the address has transfers older than the page read, so counts are lower bounds. */
  truncated: boolean;
}

/** One value movement seen from an address: the edge the exposure crawl follows. */
export interface AddressTransfer {
  txid: string;
  /** Unix seconds; null when the source does not say. */
  timestamp: number | null;
  direction: 'in' | 'out';
  counterparty: string;
  asset: Asset;
  amount: bigint;
}

/**
 * A UTXO transaction whole, as clustering reads it: every input's spent address and value (coinbase inputs left
 * out) and every output's. An input or output without an address (P2PK, OP_RETURN, bare multisig) has null.
 */
export interface UtxoTransaction {
  txid: string;
  /** Unix seconds of the including block; null while unconfirmed or when the source does not say. */
  timestamp: number | null;
  inputs: { address: string | null; value: bigint }[];
  outputs: { address: string | null; value: bigint }[];
}

export interface AddressFacts {
  address: string;
  isContract: boolean;
  nativeBalance: bigint;
  tokenBalances: { asset: Asset; amount: bigint }[];
  /** Outgoing transaction count (EVM nonce). */
  outgoingCount: number;
  transferSummary: TransferSummary | null;
}

/** A real client for one chain. Every call takes the crawl's AbortSignal so crawlTimeout is a hard deadline. */
export interface ChainClient {
  readonly chain: Chain;
  readonly nativeAsset: Extract<Asset, { kind: 'native' }>;
  /** Canonical form used as the key into the reference data; throws InvalidAddressError. */
  normalizeAddress(raw: string): string;
  /** null when the node does not know the transaction. */
  getTransaction(hash: string, signal: AbortSignal): Promise<ChainTransaction | null>;
  getAddressFacts(
    address: string,
    options: { tokens: string[]; transferLimit: number },
    signal: AbortSignal,
  ): Promise<AddressFacts>;
  /**
   * The address's recent value movements in both directions, newest first, at most `limit` (one or two
   * provider pages). Absent when the provider has no address index: the crawl then stops at this node.
   */
  getAddressTransfers?(
    address: string,
    options: { limit: number },
    signal: AbortSignal,
  ): Promise<{ transfers: AddressTransfer[]; truncated: boolean }>;
  /**
   * The address's recent transactions whole (inputs and outputs with their addresses), newest first, at most `limit`:
   * what common-input clustering reads. Only UTXO chains (bitcoin) have it.
   */
  getAddressTransactions?(
    address: string,
    options: { limit: number },
    signal: AbortSignal,
  ): Promise<{ transactions: UtxoTransaction[]; truncated: boolean }>;
  /**
   * Where getAddressTransfers reads from and what that source cannot see (echoed as the full response's
   * `crawl.source`). Absent when a chain has one source only.
   */
  transferSource?(signal: AbortSignal): Promise<TransferSourceReport>;
  /**
   * This client for one analysis: state an analysis learns (e.g. the block span its EVM log reads covered) stays in
   * that analysis and is reported by its own transferSource. Absent when a client keeps no per-analysis state.
   */
  forAnalysis?(): ChainClient;
}

/** Where a client reads an address's transfers from, for the crawl report. */
export interface TransferSourceReport {
  /** e.g. "otterscan", "etherscan", "logs". */
  name: string;
  /** What this source leaves out, in words (e.g. native transfers on a plain node); null when nothing known. */
  limitation: string | null;
  /** Kinds of movement the source cannot see at all: a crawl over it says so in its note. */
  blindTo: ('native' | 'internal')[];
}

export class InvalidAddressError extends AppError {
  constructor(
    readonly chain: Chain,
    readonly address: string,
  ) {
    super(SCREENING_ERRORS.INVALID_TARGET, `"${address}" is not a valid ${chain} address`);
  }
}

/**
 * The provider refused this deployment's setup (an invalid API key, a plan without the chain, a node on
 * another chain id): retrying cannot help until an operator changes the configuration.
 */
export class ChainConfigurationError extends AppError {
  constructor(
    readonly chain: Chain,
    message: string,
  ) {
    super(SCREENING_ERRORS.CHAIN_UNAVAILABLE, message, { retryable: false });
  }
}

/**
 * The node could not be reached or answered with an error; retrying later may succeed, unless `retryable` says
 * the provider refused this very request (it would refuse it again).
 */
export class ChainUnavailableError extends AppError {
  constructor(
    readonly chain: Chain,
    message: string,
    override readonly cause?: unknown,
    options: { retryable?: boolean } = {},
  ) {
    super(SCREENING_ERRORS.CHAIN_UNAVAILABLE, message, options);
  }
}
