import type { HttpObserver } from '../../platform/http-client/http-client';
import {
  ChainUnavailableError,
  InvalidAddressError,
  type AddressFacts,
  type AddressTransfer,
  type Asset,
  type ChainClient,
  type ChainTransaction,
} from './chain-client';
import { createHttpProvider, type ProviderMetrics } from './http-provider';
import { normalizeXrplAddress } from './xrpl-address';
import { XRP, parseAmount, type XrplAmount } from './xrpl-amount';

export interface XrplClientOptions {
  /** rippled/Clio JSON-RPC endpoint, e.g. https://s2.ripple.com:51234/ (full history). */
  rpcUrl: string;
  requestTimeoutMs: number;
  ratePerSecond?: number;
  fetch?: typeof fetch;
  /** Counts requests and failures per provider (the worker's metrics). */
  observer?: HttpObserver;
  /** Largest answer read (HTTP_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
}

/** Exchanges share one address and tell customers apart by tag, so the tag travels with the value. */
export type XrplTransaction = ChainTransaction & { destinationTag: number | null };
export type XrplAddressTransfer = AddressTransfer & { destinationTag: number | null };

interface TxFields {
  TransactionType: string;
  Account: string;
  Destination?: string;
  DestinationTag?: number;
  Amount?: XrplAmount;
  DeliverMax?: XrplAmount;
  Flags?: number;
  date?: number;
  ledger_index?: number;
  hash?: string;
}
interface Meta {
  TransactionResult: string;
  delivered_amount?: XrplAmount | 'unavailable';
  DeliveredAmount?: XrplAmount;
}
/** API v2 puts the transaction under `tx_json`; v1 `tx` answers flatten it, v1 `account_tx` entries nest it as `tx`. */
type TxEntry = Partial<TxFields> & {
  tx_json?: TxFields;
  tx?: TxFields;
  meta?: Meta | string;
  hash?: string;
  ledger_index?: number;
  date?: number;
  validated?: boolean;
};

/** XRPL times count seconds from 2000-01-01T00:00:00Z. */
const RIPPLE_EPOCH = 946_684_800;
const TF_PARTIAL_PAYMENT = 0x0002_0000;
const TRANSACTIONS_PAGE = 50;

class RippledError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function unpack(entry: TxEntry) {
  const tx = (entry.tx_json ?? entry.tx ?? entry) as TxFields;
  const meta = typeof entry.meta === 'object' ? entry.meta : undefined;
  const date = tx.date ?? entry.date;
  const ledger = entry.ledger_index ?? tx.ledger_index;
  return {
    tx,
    meta,
    hash: (entry.hash ?? tx.hash ?? '').toUpperCase(),
    ledger,
    timestamp: date === undefined ? null : date + RIPPLE_EPOCH,
    validated: entry.validated,
  };
}

/**
 * What a successful Payment delivered: `meta.delivered_amount`, never `Amount` (a partial payment delivers less).
 * Ledgers before 2014 carry no delivered_amount ("unavailable" or absent); there a payment without the
 * tfPartialPayment flag delivered exactly its Amount or failed, so that one case may fall back to it.
 */
function delivered(tx: TxFields, meta: Meta | undefined): { asset: Asset; amount: bigint } | null {
  if (tx.TransactionType !== 'Payment' || meta?.TransactionResult !== 'tesSUCCESS') return null;
  const fromMeta = meta.delivered_amount ?? meta.DeliveredAmount;
  if (fromMeta !== undefined && fromMeta !== 'unavailable') return parseAmount(fromMeta);
  const full = tx.DeliverMax ?? tx.Amount;
  return full !== undefined && ((tx.Flags ?? 0) & TF_PARTIAL_PAYMENT) === 0 ? parseAmount(full) : null;
}

export function createXrplClient(options: XrplClientOptions): ChainClient & { metrics(): ProviderMetrics } {
  const chain = 'ripple' as const;
  const provider = createHttpProvider({
    chain,
    name: 'rippled',
    baseUrl: options.rpcUrl,
    ratePerSecond: options.ratePerSecond ?? 5,
    requestTimeoutMs: options.requestTimeoutMs,
    fetch: options.fetch,
    observer: options.observer,
    maxResponseBytes: options.maxResponseBytes,
  });

  /** rippled answers errors with HTTP 200 and `result.status: "error"`; they come back as RippledError. */
  async function rpc<T>(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<T> {
    const answer = await provider.request<{ result?: T & { status?: string; error?: string; error_message?: string } }>(
      'POST',
      '',
      { signal, body: { method, params: [params] } },
    );
    const result = answer?.result;
    if (!result) throw new ChainUnavailableError(chain, `rippled ${method}: answer without result`);
    if (result.status === 'error' || result.error)
      throw new RippledError(result.error ?? 'unknown', `rippled ${method}: ${result.error_message ?? result.error}`);
    return result;
  }

  /** Expected "does not exist" codes map to null; any other node error is an outage for the caller. */
  async function rpcOrNull<T>(
    method: string,
    params: Record<string, unknown>,
    notFound: string,
    signal: AbortSignal,
  ): Promise<T | null> {
    try {
      return await rpc<T>(method, params, signal);
    } catch (err) {
      if (err instanceof RippledError) {
        if (err.code === notFound) return null;
        throw new ChainUnavailableError(chain, err.message, err);
      }
      throw err;
    }
  }

  function normalizeAddress(raw: string): string {
    const address = normalizeXrplAddress(raw.trim());
    if (!address) throw new InvalidAddressError(chain, raw);
    return address;
  }

  async function getTransaction(hash: string, signal: AbortSignal): Promise<XrplTransaction | null> {
    signal.throwIfAborted();
    if (!/^[0-9a-fA-F]{64}$/.test(hash)) return null;
    const result = await rpcOrNull<TxEntry>(
      'tx',
      { transaction: hash.toUpperCase(), binary: false },
      'txnNotFound',
      signal,
    );
    if (!result) return null;
    const { tx, meta, ledger, timestamp, validated, hash: txHash } = unpack(result);
    const value = delivered(tx, meta);
    const status =
      !meta || validated === false ? 'pending' : meta.TransactionResult === 'tesSUCCESS' ? 'success' : 'failed';
    return {
      chain,
      hash: txHash || hash.toUpperCase(),
      status,
      blockNumber: ledger === undefined ? null : BigInt(ledger),
      timestamp,
      from: tx.Account,
      to: tx.Destination ?? null,
      transfers: value
        ? [{ from: tx.Account, to: tx.Destination ?? null, ...value, source: 'delivered_amount', index: 0 }]
        : [],
      destinationTag: tx.DestinationTag ?? null,
    };
  }

  async function readAddressTransactions(address: string, limit: number, signal: AbortSignal) {
    const params = { account: address, ledger_index_min: -1, ledger_index_max: -1, limit, forward: false };
    const page = await rpcOrNull<{ transactions: TxEntry[]; marker?: unknown }>(
      'account_tx',
      params,
      'actNotFound',
      signal,
    );
    const entries = (page?.transactions ?? []).map(unpack);
    const transfers: XrplAddressTransfer[] = [];
    for (const { tx, meta, hash, timestamp } of entries) {
      const value = delivered(tx, meta);
      if (!value || !tx.Destination || tx.Account === tx.Destination) continue;
      const outgoing = tx.Account === address;
      if (!outgoing && tx.Destination !== address) continue;
      const counterparty = outgoing ? tx.Destination : tx.Account;
      transfers.push({
        txid: hash,
        timestamp,
        direction: outgoing ? 'out' : 'in',
        counterparty,
        ...value,
        destinationTag: tx.DestinationTag ?? null,
      });
    }
    // rippled stops at `limit` transactions and hands back a marker when more exist.
    return {
      entries,
      transfers: transfers.slice(0, limit),
      truncated: page?.marker !== undefined || transfers.length > limit,
    };
  }

  async function getAddressTransfers(raw: string, { limit }: { limit: number }, signal: AbortSignal) {
    signal.throwIfAborted();
    const { transfers, truncated } = await readAddressTransactions(normalizeAddress(raw), limit, signal);
    return { transfers, truncated };
  }

  async function getAddressFacts(
    raw: string,
    { transferLimit }: { tokens: string[]; transferLimit: number },
    signal: AbortSignal,
  ): Promise<AddressFacts> {
    signal.throwIfAborted();
    const address = normalizeAddress(raw);
    const info = await rpcOrNull<{ account_data: { Balance: string } }>(
      'account_info',
      { account: address, ledger_index: 'validated' },
      'actNotFound',
      signal,
    );
    // An unfunded account has no ledger entry and therefore no transactions worth a request.
    if (!info)
      return {
        address,
        isContract: false,
        nativeBalance: 0n,
        tokenBalances: [],
        outgoingCount: 0,
        transferSummary: null,
      };
    const { entries, transfers, truncated } = await readAddressTransactions(address, TRANSACTIONS_PAGE, signal);
    const senders = new Map<string, { address: string; asset: Asset; amount: bigint }>();
    for (const t of transfers) {
      if (t.direction !== 'in') continue;
      const key = `${t.counterparty}|${t.asset.kind === 'token' ? t.asset.contract : 'XRP'}`;
      const seen = senders.get(key);
      if (seen) seen.amount += t.amount;
      else senders.set(key, { address: t.counterparty, asset: t.asset, amount: t.amount });
    }
    const times = entries.map((e) => e.timestamp).filter((t): t is number => t !== null);
    return {
      address,
      isContract: false,
      nativeBalance: BigInt(info.account_data.Balance),
      // IOU balances (account_lines) are not read: the screening keys on XRP and on delivered IOU flows.
      tokenBalances: [],
      // Sequence counts AccountSet, offers and tickets too, so the sampled sent transactions say more.
      outgoingCount: entries.filter((e) => e.tx.Account === address).length,
      transferSummary: {
        firstSeen: truncated || times.length === 0 ? null : Math.min(...times),
        lastSeen: times.length === 0 ? null : Math.max(...times),
        inboundCount: new Set(transfers.filter((t) => t.direction === 'in').map((t) => t.txid)).size,
        inboundCounterparties: [...senders.values()].slice(0, Math.max(0, transferLimit)),
        truncated,
      },
    };
  }

  return {
    chain,
    nativeAsset: XRP,
    normalizeAddress,
    getTransaction,
    getAddressFacts,
    getAddressTransfers,
    metrics: provider.metrics,
  };
}
