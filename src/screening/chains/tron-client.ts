import { summarizeTransfers } from './transfer-summary';
import type { HttpObserver } from '../../platform/http-client/http-client';
import {
  InvalidAddressError,
  type AddressFacts,
  type AddressTransfer,
  type Asset,
  type ChainClient,
  type ChainTransaction,
  type Transfer,
} from './chain-client';
import { decodeTransferLogs } from './evm-logs';
import { createHttpProvider, type ProviderMetrics } from './http-provider';
import { toTronBase58, tronHexToBase58 } from './tron-address';

export interface TronClientOptions {
  /** TronGrid (or any FullNode exposing both /wallet/* and TronGrid's /v1/*). */
  apiUrl: string;
  apiKey?: string;
  requestTimeoutMs: number;
  ratePerSecond?: number;
  fetch?: typeof fetch;
  /** Counts requests and failures per provider (the worker's metrics). */
  observer?: HttpObserver;
  /** Largest answer read (HTTP_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
}

interface ContractValue {
  owner_address?: string;
  to_address?: string;
  contract_address?: string;
  amount?: number;
  call_value?: number;
  asset_name?: string;
}
interface RawTx {
  txID: string;
  ret?: { contractRet?: string }[];
  block_timestamp?: number;
  raw_data?: { contract?: { type: string; parameter?: { value?: ContractValue } }[] };
}
/** TronGrid lists internal (contract-made) TRX movements in the same page, in this shape. */
interface InternalItem {
  internal_tx_id: string;
  tx_id: string;
  block_timestamp?: number;
  from_address: string;
  to_address: string;
  data?: { rejected?: boolean; call_value?: { _?: number } };
}
interface TxInfo {
  blockNumber?: number;
  blockTimeStamp?: number;
  receipt?: { result?: string };
  log?: { address: string; topics?: string[]; data?: string }[];
  internal_transactions?: {
    caller_address: string;
    transferTo_address: string;
    rejected?: boolean;
    callValueInfo?: { callValue?: number; tokenId?: string }[];
  }[];
}
interface Trc20Item {
  transaction_id: string;
  block_timestamp?: number;
  from: string;
  to: string;
  type?: string;
  value: string;
  token_info?: { address: string; symbol?: string; decimals?: number };
}
interface Account {
  balance?: number;
  create_time?: number;
  type?: string;
  trc20?: Record<string, string>[];
  assetV2?: { key: string; value: number }[];
}
interface Page<T> {
  data?: T[];
  meta?: { fingerprint?: string };
}

const TRX = { kind: 'native', symbol: 'TRX', decimals: 6 } as const;
const MAX_PAGE = 200; // TronGrid's documented maximum `limit`.

/**
 * Amounts arrive as JSON numbers (sun) or decimal strings; anything else counts as nothing moved. A number
 * above 2^53 sun (9e9 TRX) has already lost precision in JSON.parse inside the shared provider.
 */
const big = (v: unknown): bigint =>
  (typeof v === 'number' && Number.isInteger(v) && v >= 0) || (typeof v === 'string' && /^\d+$/.test(v))
    ? BigInt(v)
    : 0n;
const seconds = (ms: number | undefined) => (ms ? Math.floor(ms / 1000) : null);

/**
 * TRC-10 ids are numeric strings; FullNode answers without `visible` hex-encode them, so decode when
 * that yields digits.
 */
function trc10Asset(name: string): Asset {
  const decoded = /^([0-9a-f]{2})+$/i.test(name) ? Buffer.from(name, 'hex').toString('latin1') : '';
  return {
    kind: 'token',
    standard: 'trc10',
    contract: /^\d+$/.test(decoded) ? decoded : name,
    symbol: null,
    decimals: null,
  };
}

/** Who a raw transaction's (single) contract is from and to, and the TRX or TRC-10 value it carries itself. */
function contractMove(tx: RawTx): { from: string | null; to: string | null; asset: Asset; amount: bigint } {
  const contract = tx.raw_data?.contract?.[0];
  const v = contract?.parameter?.value ?? {};
  const from = v.owner_address ? toTronBase58(v.owner_address) : null;
  const to = v.to_address ?? v.contract_address;
  const move = { from, to: to ? toTronBase58(to) : null, asset: TRX as Asset, amount: 0n };
  if (contract?.type === 'TransferContract') move.amount = big(v.amount);
  if (contract?.type === 'TransferAssetContract' && v.asset_name)
    Object.assign(move, { asset: trc10Asset(v.asset_name), amount: big(v.amount) });
  // TRX sent along with a contract call is a real transfer to the contract.
  if (contract?.type === 'TriggerSmartContract') move.amount = big(v.call_value);
  return move;
}

/** One value movement seen from `self`, or null when it does not involve it as exactly one side. */
function edge(
  self: string,
  txid: string,
  ms: number | undefined,
  from: string | null,
  to: string | null,
  asset: Asset,
  amount: bigint,
) {
  if (amount <= 0n || !from || !to || from === to || (from !== self && to !== self)) return null;
  const transfer: AddressTransfer = {
    txid,
    timestamp: seconds(ms),
    direction: from === self ? 'out' : 'in',
    counterparty: from === self ? to : from,
    asset,
    amount,
  };
  return { ms: ms ?? 0, transfer };
}

export function createTronClient(options: TronClientOptions): ChainClient & { metrics(): ProviderMetrics } {
  const api = createHttpProvider({
    chain: 'tron',
    name: 'trongrid',
    baseUrl: options.apiUrl,
    headers: options.apiKey ? { 'TRON-PRO-API-KEY': options.apiKey } : undefined,
    ratePerSecond: options.ratePerSecond ?? 10,
    requestTimeoutMs: options.requestTimeoutMs,
    fetch: options.fetch,
    observer: options.observer,
    maxResponseBytes: options.maxResponseBytes,
  });

  function normalizeAddress(raw: string): string {
    const address = toTronBase58(raw);
    if (!address) throw new InvalidAddressError('tron', raw);
    return address;
  }

  async function getTransaction(hash: string, signal: AbortSignal): Promise<ChainTransaction | null> {
    signal.throwIfAborted();
    // A malformed id cannot exist on chain; asking would only earn a node error.
    if (!/^(0x)?[0-9a-fA-F]{64}$/.test(hash)) return null;
    const txid = hash.replace(/^0x/, '').toLowerCase();
    const [tx, info] = await Promise.all([
      api.request<RawTx>('POST', '/wallet/gettransactionbyid', { signal, body: { value: txid, visible: true } }),
      api.request<TxInfo>('POST', '/wallet/gettransactioninfobyid', { signal, body: { value: txid } }),
    ]);
    if (!tx?.txID) return null; // the FullNode answers {} for an unknown id
    // The info stays {} until the transaction is in a block.
    const mined = typeof info?.blockNumber === 'number';
    const result = info?.receipt?.result ?? tx.ret?.[0]?.contractRet;
    const status = !mined ? 'pending' : !result || result === 'SUCCESS' ? 'success' : 'failed';
    const move = contractMove(tx);
    const transfers: Transfer[] = [];
    // A failed transaction moved nothing but its fee, which is not a counterparty flow.
    if (status !== 'failed') {
      if (move.amount > 0n)
        transfers.push({
          from: move.from,
          to: move.to,
          asset: move.asset,
          amount: move.amount,
          source: 'native',
          index: 0,
        });
      const logs = (info?.log ?? []).map((l) => ({
        address: `0x${l.address}`,
        topics: (l.topics ?? []).map((t) => `0x${t}`),
        data: `0x${l.data ?? ''}`,
      }));
      for (const t of decodeTransferLogs(logs)) {
        const asset: Asset = {
          kind: 'token',
          standard: 'trc20',
          contract: tronHexToBase58(t.token)!,
          symbol: null,
          decimals: null,
        };
        const from = t.from && tronHexToBase58(t.from);
        const to = t.to && tronHexToBase58(t.to);
        transfers.push({ from, to, asset, amount: t.amount, source: 'log', index: t.logIndex });
      }
      for (const [index, internal] of (info?.internal_transactions ?? []).entries()) {
        if (internal.rejected) continue;
        for (const cv of internal.callValueInfo ?? []) {
          const amount = big(cv.callValue);
          if (amount === 0n) continue;
          const asset = cv.tokenId ? trc10Asset(cv.tokenId) : TRX;
          transfers.push({
            from: toTronBase58(internal.caller_address),
            to: toTronBase58(internal.transferTo_address),
            asset,
            amount,
            source: 'internal',
            index,
          });
        }
      }
    }
    return {
      chain: 'tron',
      hash: txid,
      status,
      blockNumber: mined ? BigInt(info!.blockNumber!) : null,
      timestamp: mined ? seconds(info?.blockTimeStamp) : null,
      from: move.from ?? '',
      to: move.to,
      transfers,
    };
  }

  async function getAddressTransfers(raw: string, { limit }: { limit: number }, signal: AbortSignal) {
    signal.throwIfAborted();
    const self = normalizeAddress(raw);
    const size = Math.min(MAX_PAGE, Math.max(1, limit));
    const [nativePage, tokenPage] = await Promise.all([
      api.request<Page<RawTx | InternalItem>>('GET', `/v1/accounts/${self}/transactions`, {
        signal,
        query: { limit: size, order_by: 'block_timestamp,desc' },
      }),
      api.request<Page<Trc20Item>>('GET', `/v1/accounts/${self}/transactions/trc20`, {
        signal,
        query: { limit: size },
      }),
    ]);
    const edges: ({ ms: number; transfer: AddressTransfer } | null)[] = [];
    for (const item of nativePage?.data ?? []) {
      if ('internal_tx_id' in item) {
        if (item.data?.rejected) continue;
        edges.push(
          edge(
            self,
            item.tx_id,
            item.block_timestamp,
            toTronBase58(item.from_address),
            toTronBase58(item.to_address),
            TRX,
            big(item.data?.call_value?._),
          ),
        );
        continue;
      }
      // A failed transaction only burned its fee.
      if (item.ret?.[0]?.contractRet !== 'SUCCESS') continue;
      const move = contractMove(item);
      edges.push(edge(self, item.txID, item.block_timestamp, move.from, move.to, move.asset, move.amount));
    }
    for (const item of tokenPage?.data ?? []) {
      if (item.type && item.type !== 'Transfer') continue; // approvals move nothing
      const asset: Asset = {
        kind: 'token',
        standard: 'trc20',
        contract: item.token_info?.address ?? '',
        symbol: item.token_info?.symbol ?? null,
        decimals: item.token_info?.decimals ?? null,
      };
      // edge() drops zero-value transfers: address-poisoning spam that would otherwise pose as counterparties.
      edges.push(
        edge(
          self,
          item.transaction_id,
          item.block_timestamp,
          toTronBase58(item.from),
          toTronBase58(item.to),
          asset,
          big(item.value),
        ),
      );
    }
    // Each endpoint pages on its own. When one was cut, the other's items older than its last one would
    // skip over movements that page did not reach, so the merged window ends where the cut page ends.
    const oldest = (page: Page<{ block_timestamp?: number }> | null) =>
      page?.meta?.fingerprint ? Math.min(...(page.data ?? []).map((i) => i.block_timestamp ?? Infinity)) : -Infinity;
    const cutoff = Math.max(oldest(nativePage), oldest(tokenPage));
    const merged = edges
      .filter((e) => e !== null && e.ms >= cutoff)
      .sort((a, b) => b!.ms - a!.ms)
      .map((e) => e!.transfer);
    const truncated = Boolean(nativePage?.meta?.fingerprint || tokenPage?.meta?.fingerprint) || merged.length > size;
    return { transfers: merged.slice(0, size), truncated };
  }

  async function getAddressFacts(
    raw: string,
    { tokens, transferLimit }: { tokens: string[]; transferLimit: number },
    signal: AbortSignal,
  ): Promise<AddressFacts> {
    signal.throwIfAborted();
    const address = normalizeAddress(raw);
    const [page, recent] = await Promise.all([
      api.request<Page<Account>>('GET', `/v1/accounts/${address}`, { signal }),
      getAddressTransfers(address, { limit: Math.max(1, transferLimit) }, signal),
    ]);
    // TronGrid answers an empty `data` for an address that was never activated.
    const account = page?.data?.[0];
    const trc20 = Object.assign({}, ...(account?.trc20 ?? [])) as Record<string, string>;
    const tokenBalances = [...new Set(tokens)].map((token) => {
      if (/^\d+$/.test(token))
        return { asset: trc10Asset(token), amount: big(account?.assetV2?.find((a) => a.key === token)?.value) };
      const contract = normalizeAddress(token);
      // TronGrid lists every TRC-20 the account holds, so an absent contract is a zero balance.
      return {
        asset: { kind: 'token', standard: 'trc20', contract, symbol: null, decimals: null } as Asset,
        amount: big(trc20[contract]),
      };
    });
    return {
      address,
      isContract: account?.type === 'Contract',
      nativeBalance: big(account?.balance),
      tokenBalances,
      // Tron has no nonce: this counts outgoing transactions in the sampled page (a lower bound).
      outgoingCount: new Set(recent.transfers.filter((t) => t.direction === 'out').map((t) => t.txid)).size,
      transferSummary: summarizeTransfers(
        recent.transfers,
        recent.truncated,
        transferLimit,
        seconds(account?.create_time),
      ),
    };
  }

  return {
    chain: 'tron',
    nativeAsset: TRX,
    normalizeAddress,
    getTransaction,
    getAddressFacts,
    getAddressTransfers,
    metrics: api.metrics,
  };
}
