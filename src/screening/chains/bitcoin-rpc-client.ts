import type { HttpObserver } from '../../platform/http-client/http-client';
import { type BitcoinNetwork, normalizeBitcoinAddress } from './bitcoin-address';
import { createBitcoinNetworkGuard } from './bitcoin-network-guard';
import { BitcoinRpcError, createBitcoinRpc } from './bitcoin-rpc';
import { btcToSats } from './btc-amount';
import {
  ChainConfigurationError,
  InvalidAddressError,
  type AddressFacts,
  type ChainClient,
  type ChainTransaction,
  type TransferSourceReport,
  type UtxoTransaction,
} from './chain-client';
import type { ProviderMetrics } from './http-provider';
import { BITCOIN_COIN, BTC, utxoChainTransaction, utxoTransferSummary, utxoTransfersOf } from './utxo-flows';

export interface BitcoinRpcClientOptions {
  /** BITCOIN_RPC_URL: http://user:pass@host:port of a node with --txindex --addrindex (btcd). */
  rpcUrl: string;
  /** BITCOIN_NETWORK: the addresses accepted, and the network the node must run. */
  network: BitcoinNetwork;
  requestTimeoutMs: number;
  ratePerSecond?: number;
  fetch?: typeof fetch;
  /** Counts requests and failures per provider (the worker's metrics). */
  observer?: HttpObserver;
  /** Largest answer read (HTTP_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
}

/** Amounts are text when fractional (parseBitcoinRpcJson), a number when whole. */
type Amount = number | string;
interface ScriptPubKey {
  /** bitcoind 22+ and btcd. */
  address?: string;
  /** btcd and older bitcoind; several for bare multisig, which pays no single address. */
  addresses?: string[];
}
interface RpcVout {
  value: Amount;
  n: number;
  scriptPubKey: ScriptPubKey;
}
interface RpcVin {
  coinbase?: string;
  txid?: string;
  vout?: number;
  /** searchrawtransactions with vinextra=1 (btcd). */
  prevOut?: { addresses?: string[]; value: Amount };
}
interface RpcTx {
  txid: string;
  vin: RpcVin[];
  vout: RpcVout[];
  blockhash?: string;
  confirmations?: number;
  blocktime?: number;
}

/** btcd's "no such transaction" and "no transactions for this address" (RPC_INVALID_ADDRESS_OR_KEY). */
const NOT_FOUND = -5;
/** bitcoind's and btcd's refusal of a parameter: a malformed txid is unknown, not an outage. */
const INVALID_PARAMETER = new Set([-8, -22]);
/** One searchrawtransactions page: btcd's default count, and enough for the facts' sample. */
const PAGE = 100;
/** The largest page asked for (getAddressTransactions' limit is the caller's; the answer must stay under the cap). */
const MAX_PAGE = 1_000;
/** Concurrent getrawtransaction calls for one transaction's inputs; the provider's bucket still paces them. */
const FETCH_WIDTH = 4;
/**
 * Distinct funding transactions read for one transaction's inputs. A standard transaction (100 kvB) spends at most
 * about 1,400 outputs; inputs past this bound are left out of its transfers rather than reading without end.
 */
const MAX_PREVIOUS_TXS = 1_000;

const HEX64 = /^[0-9a-fA-F]{64}$/;
const single = (addresses: string[] | undefined): string | null => (addresses?.length === 1 ? addresses[0]! : null);
const outputAddress = (spk: ScriptPubKey): string | null => spk.address ?? single(spk.addresses);

/**
 * Bitcoin from a node's JSON-RPC: transactions by `getrawtransaction` (--txindex), address transactions by btcd's
 * `searchrawtransactions` (--addrindex), which gives each input's spent address and value (vinextra). Checks once
 * that the node runs BITCOIN_NETWORK. The URL's userinfo is sent as Basic authorization and never quoted.
 */
export function createBitcoinRpcClient(options: BitcoinRpcClientOptions): ChainClient & { metrics(): ProviderMetrics } {
  const chain = 'bitcoin' as const;
  const rpc = createBitcoinRpc({
    rpcUrl: options.rpcUrl,
    requestTimeoutMs: options.requestTimeoutMs,
    ratePerSecond: options.ratePerSecond ?? 20,
    fetch: options.fetch,
    observer: options.observer,
    maxResponseBytes: options.maxResponseBytes,
  });
  const guard = createBitcoinNetworkGuard(rpc, options.network);

  function normalizeAddress(raw: string): string {
    const address = normalizeBitcoinAddress(raw, options.network);
    if (address === null) throw new InvalidAddressError(chain, raw);
    return address;
  }

  /** The answer, or null when the node said it has no such thing (or that the key was malformed). */
  async function callOrNull<T>(method: string, params: unknown[], signal: AbortSignal): Promise<T | null> {
    try {
      return await rpc.call<T>(method, params, signal);
    } catch (err) {
      if (err instanceof BitcoinRpcError && (err.rpcCode === NOT_FOUND || INVALID_PARAMETER.has(err.rpcCode ?? 0)))
        return null;
      throw err;
    }
  }

  /** Each input's spent output, from its funding transaction: `getrawtransaction` alone does not say. */
  async function spentOutputs(tx: RpcTx, signal: AbortSignal): Promise<Map<string, RpcTx>> {
    const ids = [...new Set(tx.vin.flatMap((i) => (i.coinbase || !i.txid ? [] : [i.txid])))].slice(0, MAX_PREVIOUS_TXS);
    const funding = new Map<string, RpcTx>();
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const id = ids[next++]!;
        const found = await callOrNull<RpcTx>('getrawtransaction', [id, 1], signal);
        if (found) funding.set(id, found);
      }
    };
    await Promise.all(Array.from({ length: Math.min(FETCH_WIDTH, ids.length) }, worker));
    return funding;
  }

  async function getTransaction(hash: string, signal: AbortSignal): Promise<ChainTransaction | null> {
    signal.throwIfAborted();
    if (!HEX64.test(hash)) return null;
    await guard.ensure(signal);
    const tx = await callOrNull<RpcTx>('getrawtransaction', [hash.toLowerCase(), 1], signal);
    if (!tx) return null;
    const [funding, header] = await Promise.all([
      spentOutputs(tx, signal),
      tx.blockhash ? callOrNull<{ height: number }>('getblockheader', [tx.blockhash, true], signal) : null,
    ]);
    const inputs: UtxoTransaction['inputs'] = [];
    for (const input of tx.vin) {
      if (input.coinbase || !input.txid) continue;
      const spent = funding.get(input.txid)?.vout.find((o) => o.n === input.vout);
      // Past MAX_PREVIOUS_TXS, or pruned away: the input's value is not known, so it yields no transfer.
      if (spent) inputs.push({ address: outputAddress(spent.scriptPubKey), value: btcToSats(spent.value) });
    }
    const confirmed = Boolean(tx.blockhash) && (tx.confirmations ?? 0) > 0;
    return utxoChainTransaction(
      {
        txid: tx.txid,
        timestamp: confirmed ? (tx.blocktime ?? null) : null,
        inputs,
        outputs: tx.vout.map((o) => ({ address: outputAddress(o.scriptPubKey), value: btcToSats(o.value) })),
      },
      {
        // A bitcoin transaction cannot fail once mined: it is either in a block or waiting.
        status: confirmed ? 'success' : 'pending',
        blockNumber: confirmed && header ? BigInt(header.height) : null,
        coinbase: Boolean(tx.vin[0]?.coinbase),
      },
      BITCOIN_COIN,
    );
  }

  /**
   * The address's transactions, newest first (mempool first, then blocks: btcd's reverse order), at most `count`;
   * `full` when the page was, so older ones may exist. An address the index never saw has none.
   */
  async function readAddressTransactions(address: string, count: number, signal: AbortSignal) {
    await guard.ensure(signal);
    let page: RpcTx[] | null;
    try {
      page = await callOrNull<RpcTx[]>('searchrawtransactions', [address, 1, 0, count, 1, true], signal);
    } catch (err) {
      if (err instanceof BitcoinRpcError && /addrindex|txindex/i.test(err.message))
        throw new ChainConfigurationError(
          chain,
          'the BITCOIN_RPC_URL node keeps no address index: start btcd with --txindex --addrindex ' +
            '(bitcoind has none: use BITCOIN_ESPLORA_URL with electrs instead)',
        );
      if (err instanceof BitcoinRpcError && err.rpcCode === -32601)
        throw new ChainConfigurationError(
          chain,
          'the BITCOIN_RPC_URL node has no searchrawtransactions (bitcoind): use btcd --addrindex, or Esplora',
        );
      throw err;
    }
    const transactions = (page ?? []).map(
      (tx): UtxoTransaction => ({
        txid: tx.txid,
        timestamp: tx.blockhash ? (tx.blocktime ?? null) : null,
        inputs: tx.vin
          .filter((i) => !i.coinbase)
          .map((i) => ({
            address: single(i.prevOut?.addresses),
            value: i.prevOut ? btcToSats(i.prevOut.value) : 0n,
          })),
        outputs: tx.vout.map((o) => ({ address: outputAddress(o.scriptPubKey), value: btcToSats(o.value) })),
      }),
    );
    const confirmed = new Set((page ?? []).filter((tx) => tx.blockhash).map((tx) => tx.txid));
    return { transactions, confirmed, full: (page?.length ?? 0) >= count };
  }

  async function getAddressTransactions(raw: string, { limit }: { limit: number }, signal: AbortSignal) {
    signal.throwIfAborted();
    const address = normalizeAddress(raw);
    if (limit <= 0) return { transactions: [], truncated: false };
    const { transactions, full } = await readAddressTransactions(address, Math.min(limit, MAX_PAGE), signal);
    return { transactions, truncated: full };
  }

  /** Confirmed transactions only, as Esplora's /txs/chain gives them: the flows and facts mean the same on both. */
  async function confirmedTransactions(address: string, count: number, signal: AbortSignal) {
    const { transactions, confirmed, full } = await readAddressTransactions(address, count, signal);
    return { txs: transactions.filter((tx) => confirmed.has(tx.txid)), full };
  }

  async function getAddressTransfers(raw: string, { limit }: { limit: number }, signal: AbortSignal) {
    signal.throwIfAborted();
    const address = normalizeAddress(raw);
    // Every transaction of the address yields at least one edge, so `limit` transactions are always enough.
    const { txs, full } = await confirmedTransactions(address, Math.min(Math.max(limit, 1), MAX_PAGE), signal);
    const { transfers, cut } = utxoTransfersOf(txs, address, limit, BTC);
    return { transfers, truncated: cut || full };
  }

  async function getAddressFacts(
    raw: string,
    { transferLimit }: { tokens: string[]; transferLimit: number },
    signal: AbortSignal,
  ): Promise<AddressFacts> {
    signal.throwIfAborted();
    const address = normalizeAddress(raw);
    // One page is the facts' sample; more transactions are the crawl's decision, via getAddressTransfers.
    const { txs, full } = await confirmedTransactions(address, PAGE, signal);
    const { transfers, inboundTxs } = utxoTransfersOf(txs, address, Number.MAX_SAFE_INTEGER, BTC);
    let received = 0n;
    let spent = 0n;
    let spentOutputsCount = 0;
    for (const tx of txs) {
      for (const o of tx.outputs) if (o.address === address) received += o.value;
      for (const i of tx.inputs)
        if (i.address === address) {
          spent += i.value;
          spentOutputsCount += 1;
        }
    }
    // The node keeps no balance per address: received minus spent over the sample is exact when the sample holds every
    // transaction of the address (transferSummary.truncated false). A cut sample may hold a spend whose funding is
    // older than it.
    const balance = received - spent;
    return {
      address,
      isContract: false,
      nativeBalance: full && balance < 0n ? 0n : balance,
      tokenBalances: [],
      outgoingCount: spentOutputsCount,
      transferSummary: utxoTransferSummary(txs, { transfers, inboundTxs, truncated: full }, transferLimit, BTC),
    };
  }

  async function transferSource(): Promise<TransferSourceReport> {
    return { name: 'btcd-addrindex', limitation: null, blindTo: [] };
  }

  return {
    chain,
    nativeAsset: BTC,
    normalizeAddress,
    getTransaction,
    getAddressFacts,
    getAddressTransfers,
    getAddressTransactions,
    transferSource,
    metrics: rpc.metrics,
  };
}
