import { normalizeBitcoinAddress } from './bitcoin-address';
import type { HttpObserver } from '../../platform/http-client/http-client';
import {
  ChainUnavailableError,
  InvalidAddressError,
  type AddressFacts,
  type AddressHistory,
  type AddressTransfer,
  type Asset,
  type ChainClient,
  type ChainTransaction,
  type Transfer,
} from './chain-client';
import { createHttpProvider, type ProviderMetrics } from './http-provider';

export interface EsploraBitcoinClientOptions {
  /** Esplora API root, e.g. https://blockstream.info/api or a self-hosted electrs. */
  baseUrl: string;
  requestTimeoutMs: number;
  ratePerSecond?: number;
  fetch?: typeof fetch;
  /** Counts requests and failures per provider (the worker's metrics). */
  observer?: HttpObserver;
  /** Largest answer read (HTTP_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
}

interface EsploraTx {
  txid: string;
  vin: { is_coinbase: boolean; prevout: { scriptpubkey_address?: string; value: number } | null }[];
  vout: { scriptpubkey_address?: string; value: number }[];
  status: { confirmed: boolean; block_height?: number; block_time?: number };
}
interface EsploraAddress {
  chain_stats: { funded_txo_sum: number; spent_txo_sum: number; spent_txo_count: number; tx_count: number };
}

/** Esplora's fixed page size for /address/:a/txs/chain; a shorter page is the last one. */
const PAGE_SIZE = 25;
const BTC = { kind: 'native', symbol: 'BTC', decimals: 8 } as const satisfies Extract<Asset, { kind: 'native' }>;

/**
 * The address's value flow in one transaction. Funding any input makes it a sender: each other output is an
 * outgoing edge (change back to itself is not a movement). Otherwise it received, and the received sum is split
 * across the input addresses in proportion to their input value: a UTXO transaction does not say which input paid
 * which output, so value-weighted attribution ("haircut") is the neutral choice for exposure. Inputs without an
 * address (P2PK, coinbase) keep their weight but yield no edge; the rounding remainder goes to the largest input.
 */
function flowOf(tx: EsploraTx, address: string): { direction: 'in' | 'out'; edges: Map<string, bigint> } {
  const edges = new Map<string, bigint>();
  const add = (to: string, amount: bigint) => edges.set(to, (edges.get(to) ?? 0n) + amount);
  if (tx.vin.some((i) => i.prevout?.scriptpubkey_address === address)) {
    for (const o of tx.vout)
      if (o.scriptpubkey_address && o.scriptpubkey_address !== address) add(o.scriptpubkey_address, BigInt(o.value));
    return { direction: 'out', edges };
  }
  const received = tx.vout.reduce((sum, o) => (o.scriptpubkey_address === address ? sum + BigInt(o.value) : sum), 0n);
  const inputs = tx.vin.map((i) => ({ from: i.prevout?.scriptpubkey_address, value: BigInt(i.prevout?.value ?? 0) }));
  const total = inputs.reduce((sum, i) => sum + i.value, 0n);
  if (received === 0n || total === 0n) return { direction: 'in', edges };
  let given = 0n;
  let largest: { from?: string; value: bigint } | undefined;
  for (const input of inputs) {
    if (!input.from) continue;
    const share = (received * input.value) / total;
    given += share;
    add(input.from, share);
    if (!largest || input.value > largest.value) largest = input;
  }
  // Only when every input has an address does the remainder belong to someone known.
  if (largest?.from && inputs.every((i) => i.from)) add(largest.from, received - given);
  return { direction: 'in', edges };
}

export function createEsploraBitcoinClient(
  options: EsploraBitcoinClientOptions,
): ChainClient & { metrics(): ProviderMetrics } {
  const chain = 'bitcoin' as const;
  const provider = createHttpProvider({
    chain,
    name: 'esplora',
    baseUrl: options.baseUrl,
    ratePerSecond: options.ratePerSecond ?? 5,
    requestTimeoutMs: options.requestTimeoutMs,
    fetch: options.fetch,
    observer: options.observer,
    maxResponseBytes: options.maxResponseBytes,
  });
  const get = <T>(path: string, signal: AbortSignal, notFoundAsNull = false) =>
    provider.request<T>('GET', path, { signal, notFoundAsNull });

  function normalizeAddress(raw: string): string {
    const address = normalizeBitcoinAddress(raw);
    if (address === null) throw new InvalidAddressError(chain, raw);
    return address;
  }

  async function getTransaction(hash: string, signal: AbortSignal): Promise<ChainTransaction | null> {
    signal.throwIfAborted();
    // Esplora answers a malformed txid with 400, which would read as an outage rather than "unknown".
    if (!/^[0-9a-fA-F]{64}$/.test(hash)) return null;
    const tx = await get<EsploraTx>(`/tx/${hash.toLowerCase()}`, signal, true);
    if (!tx) return null;
    const transfers: Transfer[] = [];
    // Inputs first, then outputs; a coinbase input spends nothing, so it has no edge.
    for (const input of tx.vin) {
      if (input.is_coinbase || !input.prevout) continue;
      const from = input.prevout.scriptpubkey_address ?? null;
      transfers.push({
        from,
        to: null,
        asset: BTC,
        amount: BigInt(input.prevout.value),
        source: 'utxo',
        index: transfers.length,
      });
    }
    for (const output of tx.vout) {
      // OP_RETURN and other zero-value outputs carry no funds to trace.
      if (output.value === 0) continue;
      const to = output.scriptpubkey_address ?? null;
      transfers.push({
        from: null,
        to,
        asset: BTC,
        amount: BigInt(output.value),
        source: 'utxo',
        index: transfers.length,
      });
    }
    const firstIn = tx.vin.find((i) => i.prevout?.scriptpubkey_address)?.prevout?.scriptpubkey_address;
    return {
      chain,
      hash: tx.txid,
      // A bitcoin transaction cannot fail once mined: it is either in a block or waiting.
      status: tx.status.confirmed ? 'success' : 'pending',
      blockNumber: tx.status.block_height === undefined ? null : BigInt(tx.status.block_height),
      timestamp: tx.status.block_time ?? null,
      from: firstIn ?? (tx.vin[0]?.is_coinbase ? 'coinbase' : 'unknown'),
      to: tx.vout.find((o) => o.scriptpubkey_address)?.scriptpubkey_address ?? null,
      transfers,
    };
  }

  /** Newest-first confirmed history: one page, and a second (cursor = last txid seen) only when allowed and needed. */
  async function readHistory(address: string, limit: number, maxPages: 1 | 2, signal: AbortSignal) {
    const txs: EsploraTx[] = [];
    let page = (await get<EsploraTx[]>(`/address/${address}/txs/chain`, signal)) ?? [];
    txs.push(...page);
    if (maxPages === 2 && page.length === PAGE_SIZE) {
      page = (await get<EsploraTx[]>(`/address/${address}/txs/chain/${page[page.length - 1]!.txid}`, signal)) ?? [];
      txs.push(...page);
    }
    const transfers: AddressTransfer[] = [];
    let inboundTxs = 0;
    let cut = false;
    for (const tx of txs) {
      const { direction, edges } = flowOf(tx, address);
      if (direction === 'in' && tx.vout.some((o) => o.scriptpubkey_address === address)) inboundTxs += 1;
      for (const [counterparty, amount] of edges) {
        if (transfers.length >= limit) cut = true;
        else
          transfers.push({
            txid: tx.txid,
            timestamp: tx.status.block_time ?? null,
            direction,
            counterparty,
            asset: BTC,
            amount,
          });
      }
    }
    return { txs, transfers, inboundTxs, truncated: cut || page.length === PAGE_SIZE };
  }

  async function getAddressTransfers(raw: string, { limit }: { limit: number }, signal: AbortSignal) {
    signal.throwIfAborted();
    const { transfers, truncated } = await readHistory(normalizeAddress(raw), limit, limit > PAGE_SIZE ? 2 : 1, signal);
    return { transfers, truncated };
  }

  async function getAddressFacts(
    raw: string,
    { historyLimit }: { tokens: string[]; historyLimit: number },
    signal: AbortSignal,
  ): Promise<AddressFacts> {
    signal.throwIfAborted();
    const address = normalizeAddress(raw);
    // One history page is enough for the facts; more pages are the crawl's decision, via getAddressTransfers.
    const [info, history] = await Promise.all([
      get<EsploraAddress>(`/address/${address}`, signal),
      readHistory(address, Number.MAX_SAFE_INTEGER, 1, signal),
    ]);
    if (!info) throw new ChainUnavailableError(chain, `esplora GET /address: empty answer`);
    const stats = info.chain_stats;
    const senders = new Map<string, bigint>();
    for (const t of history.transfers)
      if (t.direction === 'in') senders.set(t.counterparty, (senders.get(t.counterparty) ?? 0n) + t.amount);
    const times = history.txs.map((t) => t.status.block_time).filter((t): t is number => t !== undefined);
    const truncated = history.truncated || stats.tx_count > history.txs.length;
    const summary: AddressHistory = {
      // The oldest sampled transaction is only the first one when the sample reached the start.
      firstSeen: truncated || times.length === 0 ? null : Math.min(...times),
      lastSeen: times.length === 0 ? null : Math.max(...times),
      inboundCount: history.inboundTxs,
      inboundCounterparties: [...senders]
        .slice(0, Math.max(0, historyLimit))
        .map(([a, amount]) => ({ address: a, asset: BTC, amount })),
      truncated,
    };
    return {
      address,
      isContract: false,
      nativeBalance: BigInt(stats.funded_txo_sum) - BigInt(stats.spent_txo_sum),
      tokenBalances: [],
      outgoingCount: stats.spent_txo_count,
      history: summary,
    };
  }

  return {
    chain,
    nativeAsset: BTC,
    normalizeAddress,
    getTransaction,
    getAddressFacts,
    getAddressTransfers,
    metrics: provider.metrics,
  };
}
