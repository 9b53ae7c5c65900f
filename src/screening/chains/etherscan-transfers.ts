import { raceSignal } from '../../platform/abort/deadline';
import type { TokenBucket } from '../../platform/http-client/token-bucket';
import type { HttpObserver } from '../../platform/http-client/http-client';
import { summarizeTransfers } from './transfer-summary';
import type { TransferSummary, AddressTransfer, Asset } from './chain-client';
import { EVM_NETWORKS } from './evm-networks';
import type { EvmChain } from './evm-rpc';
import { etherscanRules } from './etherscan-rules';
import { createHttpProvider } from './http-provider';

/** Etherscan v2 account API settings; one key (and so one rate limit) serves every chain id. */
export interface EtherscanSettings {
  /** e.g. https://api.etherscan.io/v2/api (Blockscout instances expose the same module=account API). */
  apiUrl: string;
  apiKey: string;
  /** The key's limit, shared by the ethereum and BSC clients. */
  bucket: TokenBucket;
  requestTimeoutMs: number;
  fetch?: typeof fetch;
  /** Counts requests and failures per provider (the worker's metrics). */
  observer?: HttpObserver;
  /** Largest answer read (HTTP_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
}

/** Fields we read from `txlist`, `txlistinternal` and `tokentx` items (all strings, as Etherscan sends them). */
interface EtherscanItem {
  blockNumber: string;
  timeStamp: string;
  hash: string;
  from: string;
  to: string;
  value: string;
  contractAddress?: string;
  isError?: string;
  txreceipt_status?: string;
  tokenSymbol?: string;
  tokenDecimal?: string;
  logIndex?: string;
  transactionIndex?: string;
}

type Action = 'txlist' | 'txlistinternal' | 'tokentx';

export interface EtherscanTransfers {
  transfers(
    address: string,
    options: { limit: number },
    signal: AbortSignal,
  ): Promise<{ transfers: AddressTransfer[]; truncated: boolean }>;
  transferSummary(
    address: string,
    options: { pageSize: number; transferLimit: number },
    signal: AbortSignal,
  ): Promise<TransferSummary>;
}

const ADDRESS = /^0x[0-9a-f]{40}$/;
const UINT = /^\d+$/;
// A job reads the target's facts and then crawls it: both use one page, read once.
const PAGE_TTL_MS = 30_000;
const PAGE_MEMO_LIMIT = 256;

/** Token metadata as Etherscan indexed it; attacker-chosen text, so trimmed and capped like on-chain symbols. */
function tokenAsset(item: EtherscanItem): Asset {
  // A token may name itself with NULs; Postgres cannot store them.
  const symbol = (item.tokenSymbol ?? '').replaceAll('\u0000', '').trim().slice(0, 32);
  const decimals =
    item.tokenDecimal !== undefined && UINT.test(item.tokenDecimal) && Number(item.tokenDecimal) <= 255
      ? Number(item.tokenDecimal)
      : null;
  return {
    kind: 'token',
    standard: 'erc20',
    contract: (item.contractAddress ?? '').toLowerCase(),
    symbol: symbol || null,
    decimals,
  };
}

interface Sortable {
  block: bigint;
  order: number;
  transfer: AddressTransfer;
}

/**
 * One list's items as movements of `self`, skipping reverted ones, zero values (address-poisoning
 * spam) and self-transfers.
 */
function movements(action: Action, items: EtherscanItem[], self: string, nativeAsset: Asset): Sortable[] {
  const out: Sortable[] = [];
  for (const [position, item] of items.entries()) {
    if (item.isError === '1' || item.txreceipt_status === '0') continue;
    if (!UINT.test(item.value ?? '') || !UINT.test(item.blockNumber ?? '')) continue;
    const amount = BigInt(item.value);
    if (amount === 0n) continue;
    const from = (item.from ?? '').toLowerCase();
    // An empty `to` is a contract creation: the value went to the new contract.
    const to = (item.to || (action === 'tokentx' ? '' : item.contractAddress) || '').toLowerCase();
    if (!ADDRESS.test(from) || !ADDRESS.test(to) || from === to || (from !== self && to !== self)) continue;
    const asset = action === 'tokentx' ? tokenAsset(item) : nativeAsset;
    if (asset.kind === 'token' && !ADDRESS.test(asset.contract)) continue;
    const timestamp = UINT.test(item.timeStamp ?? '') ? Number(item.timeStamp) : null;
    out.push({
      block: BigInt(item.blockNumber),
      // Within a block: token logs and internal calls after the transaction that carries them.
      order: Number(item.transactionIndex ?? 0) * 1e6 + (item.logIndex ? Number(item.logIndex) : position),
      transfer: {
        txid: item.hash.toLowerCase(),
        timestamp,
        direction: from === self ? 'out' : 'in',
        counterparty: from === self ? to : from,
        asset,
        amount,
      },
    });
  }
  return out;
}

/**
 * An address's transfers from the Etherscan v2 account API: native transactions (`txlist`), contract-initiated
 * native transfers (`txlistinternal`) and ERC-20 transfers (`tokentx`), newest first, one page of each
 * (`offset` = the crawl's page size), through the shared HTTP client with Etherscan's rules and the
 * key's rate limit. Documented: docs.etherscan.io api-reference txlist / txlistinternal / tokentx.
 */
export function createEtherscanTransfers(
  chain: EvmChain,
  settings: EtherscanSettings,
  nativeAsset: Asset,
): EtherscanTransfers {
  const chainId = EVM_NETWORKS[chain].chainId;
  const api = createHttpProvider({
    chain,
    name: `etherscan (chainid ${chainId})`,
    baseUrl: settings.apiUrl,
    ratePerSecond: 1,
    bucket: settings.bucket,
    requestTimeoutMs: settings.requestTimeoutMs,
    // Etherscan's limit is per second: a pause of about a second clears it.
    retry: { maxRetries: 3, baseDelayMs: 1_000, maxDelayMs: 4_000 },
    fetch: settings.fetch,
    observer: settings.observer,
    maxResponseBytes: settings.maxResponseBytes,
  });
  const pages = new Map<
    string,
    { expires: number; limit: number; page: Promise<{ transfers: AddressTransfer[]; truncated: boolean }> }
  >();

  async function list(action: Action, address: string, offset: number, signal: AbortSignal): Promise<EtherscanItem[]> {
    const query = {
      chainid: chainId,
      module: 'account',
      action,
      address,
      startblock: 0,
      endblock: 'latest',
      page: 1,
      offset,
      sort: 'desc',
      apikey: settings.apiKey,
    };
    return ((await api.request<unknown[]>('GET', '', { signal, query, classify: etherscanRules })) ??
      []) as EtherscanItem[];
  }

  async function read(address: string, limit: number, signal: AbortSignal) {
    const offset = Math.max(1, limit);
    const actions: Action[] = ['txlist', 'txlistinternal', 'tokentx'];
    const lists = await Promise.all(actions.map((action) => list(action, address, offset, signal)));
    const all = lists.flatMap((items, i) => movements(actions[i]!, items, address, nativeAsset));
    all.sort((a, b) => (a.block === b.block ? b.order - a.order : a.block > b.block ? -1 : 1));
    // A full list means older items exist beyond this page.
    const truncated = lists.some((items) => items.length >= offset) || all.length > limit;
    return { transfers: all.slice(0, limit).map((s) => s.transfer), truncated };
  }

  const cut = (page: { transfers: AddressTransfer[]; truncated: boolean }, limit: number) =>
    page.transfers.length > limit ? { transfers: page.transfers.slice(0, limit), truncated: true } : page;

  function page(address: string, limit: number, signal: AbortSignal) {
    const now = Date.now();
    const memo = pages.get(address);
    // Another caller's page: its deadline is not ours, and its failure is not a reason to give up.
    if (memo && memo.expires > now && memo.limit >= limit)
      return raceSignal(
        memo.page.catch(() => read(address, limit, signal)),
        signal,
      ).then((p) => cut(p, limit));
    if (pages.size >= PAGE_MEMO_LIMIT) pages.clear();
    const fresh = read(address, limit, signal);
    pages.set(address, { expires: now + PAGE_TTL_MS, limit, page: fresh });
    // A failed read is not remembered: the next caller asks again.
    fresh.catch(() => pages.get(address)?.page === fresh && pages.delete(address));
    return fresh;
  }

  return {
    transfers: (address, { limit }, signal) => page(address, limit, signal),
    async transferSummary(address, { pageSize, transferLimit }, signal) {
      const { transfers, truncated } = await page(address, pageSize, signal);
      return summarizeTransfers(transfers, truncated, transferLimit, null);
    },
  };
}
