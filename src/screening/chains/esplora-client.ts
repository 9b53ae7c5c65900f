import type { HttpObserver } from '../../platform/http-client/http-client';
import {
  ChainUnavailableError,
  InvalidAddressError,
  type AddressFacts,
  type ChainClient,
  type ChainTransaction,
  type UtxoTransaction,
} from './chain-client';
import { createHttpProvider, type ProviderMetrics } from './http-provider';
import { type UtxoCoin, utxoChainTransaction, utxoTransferSummary, utxoTransfersOf } from './utxo-flows';

/** How one UTXO network is read over an Esplora-compatible API (electrs, mempool.space, litecoinspace.org). */
export interface EsploraClientOptions {
  /** Esplora API root, e.g. https://blockstream.info/api or a self-hosted electrs. */
  baseUrl: string;
  /** The chain and its coin: every amount is in its base units. */
  coin: UtxoCoin;
  /** The canonical form of an address of this network (what the reference data store), or null. */
  normalizeAddress(raw: string): string | null;
  /** How the API is asked for a canonical address (default: as it is). */
  queryAddress?(canonical: string): string;
  /**
   * The canonical form of an address the API answers with (default: as it is). Flows match the screened address by
   * equality, so an API that writes addresses in another spelling (a CashAddr with its prefix) must be mapped back.
   */
  fromApi?(address: string): string;
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

/** Esplora's transaction as clustering and the flows read it: coinbase inputs left out, values in base units. */
function toUtxoTransaction(tx: EsploraTx, fromApi: (address: string) => string): UtxoTransaction {
  const address = (written: string | undefined) => (written === undefined ? null : fromApi(written));
  return {
    txid: tx.txid,
    timestamp: tx.status.block_time ?? null,
    inputs: tx.vin
      .filter((i) => !i.is_coinbase)
      .map((i) => ({ address: address(i.prevout?.scriptpubkey_address), value: BigInt(i.prevout?.value ?? 0) })),
    outputs: tx.vout.map((o) => ({ address: address(o.scriptpubkey_address), value: BigInt(o.value) })),
  };
}

/** A chain client over an Esplora-compatible API: bitcoin's, and the same code for every other UTXO network. */
export function createEsploraClient(options: EsploraClientOptions): ChainClient & { metrics(): ProviderMetrics } {
  const { chain, asset } = options.coin;
  const queryAddress = options.queryAddress ?? ((canonical: string) => canonical);
  const fromApi = options.fromApi ?? ((address: string) => address);
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
  const toUtxo = (tx: EsploraTx) => toUtxoTransaction(tx, fromApi);

  function normalizeAddress(raw: string): string {
    const address = options.normalizeAddress(raw);
    if (address === null) throw new InvalidAddressError(chain, raw);
    return address;
  }

  async function getTransaction(hash: string, signal: AbortSignal): Promise<ChainTransaction | null> {
    signal.throwIfAborted();
    // Esplora answers a malformed txid with 400, which would read as an outage rather than "unknown".
    if (!/^[0-9a-fA-F]{64}$/.test(hash)) return null;
    const tx = await get<EsploraTx>(`/tx/${hash.toLowerCase()}`, signal, true);
    if (!tx) return null;
    return utxoChainTransaction(
      toUtxo(tx),
      {
        // A UTXO transaction cannot fail once mined: it is either in a block or waiting.
        status: tx.status.confirmed ? 'success' : 'pending',
        blockNumber: tx.status.block_height === undefined ? null : BigInt(tx.status.block_height),
        coinbase: tx.vin[0]?.is_coinbase === true,
      },
      options.coin,
    );
  }

  /**
   * Newest-first confirmed transactions: one page, and a second (cursor = last txid seen) only when allowed and needed.
   */
  async function readAddressTransactions(address: string, maxPages: 1 | 2, signal: AbortSignal) {
    const path = `/address/${queryAddress(address)}/txs/chain`;
    const txs: EsploraTx[] = [];
    let page = (await get<EsploraTx[]>(path, signal)) ?? [];
    txs.push(...page);
    if (maxPages === 2 && page.length === PAGE_SIZE) {
      page = (await get<EsploraTx[]>(`${path}/${page[page.length - 1]!.txid}`, signal)) ?? [];
      txs.push(...page);
    }
    return { txs: txs.map(toUtxo), full: page.length === PAGE_SIZE };
  }

  async function getAddressTransfers(raw: string, { limit }: { limit: number }, signal: AbortSignal) {
    signal.throwIfAborted();
    const address = normalizeAddress(raw);
    const { txs, full } = await readAddressTransactions(address, limit > PAGE_SIZE ? 2 : 1, signal);
    const { transfers, cut } = utxoTransfersOf(txs, address, limit, asset);
    return { transfers, truncated: cut || full };
  }

  async function getAddressTransactions(raw: string, { limit }: { limit: number }, signal: AbortSignal) {
    signal.throwIfAborted();
    const { txs, full } = await readAddressTransactions(normalizeAddress(raw), limit > PAGE_SIZE ? 2 : 1, signal);
    return { transactions: txs.slice(0, Math.max(0, limit)), truncated: full || txs.length > limit };
  }

  async function getAddressFacts(
    raw: string,
    { transferLimit }: { tokens: string[]; transferLimit: number },
    signal: AbortSignal,
  ): Promise<AddressFacts> {
    signal.throwIfAborted();
    const address = normalizeAddress(raw);
    // One page of transactions is enough for the facts; more pages are the crawl's decision, via getAddressTransfers.
    const [info, page] = await Promise.all([
      get<EsploraAddress>(`/address/${queryAddress(address)}`, signal),
      readAddressTransactions(address, 1, signal),
    ]);
    if (!info) throw new ChainUnavailableError(chain, `esplora GET /address: empty answer`);
    const stats = info.chain_stats;
    const { transfers, inboundTxs } = utxoTransfersOf(page.txs, address, Number.MAX_SAFE_INTEGER, asset);
    const truncated = page.full || stats.tx_count > page.txs.length;
    const summary = utxoTransferSummary(page.txs, { transfers, inboundTxs, truncated }, transferLimit, asset);
    return {
      address,
      isContract: false,
      nativeBalance: BigInt(stats.funded_txo_sum) - BigInt(stats.spent_txo_sum),
      tokenBalances: [],
      outgoingCount: stats.spent_txo_count,
      transferSummary: summary,
    };
  }

  return {
    chain,
    nativeAsset: asset,
    normalizeAddress,
    getTransaction,
    getAddressFacts,
    getAddressTransfers,
    getAddressTransactions,
    metrics: provider.metrics,
  };
}
