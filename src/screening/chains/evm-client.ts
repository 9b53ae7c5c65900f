import {
  InvalidAddressError,
  type AddressFacts,
  type Asset,
  type ChainClient,
  type ChainTransaction,
  type Transfer,
} from './chain-client';
import type { HttpObserver } from '../../platform/http-client/http-client';
import { createEtherscanTransfers, type EtherscanSettings } from './etherscan-transfers';
import type { BlockRange, BlockWindowSettings } from './evm-block-windows';
import { EVM_NETWORKS } from './evm-networks';
import { createChainIdGuard } from './evm-chain-id';
import { readOtsTransferSummary, readOtsTransfers } from './otterscan-transfers';
import { pickTransferSource, type EvmTransferSourceMode, type EvmTransferSource } from './evm-transfer-source';
import { createLogTransfers } from './evm-log-transfers';
import {
  ERC20_SELECTORS,
  balanceOfCallData,
  decodeDecimals,
  decodeSymbol,
  decodeTransferLogs,
  decodeUint,
  type RpcLog,
} from './evm-logs';
import { createEvmRpc, type EvmChain } from './evm-rpc';

export type { EvmChain } from './evm-rpc';

export interface EvmClientOptions {
  chain: EvmChain;
  /** Provider URL from configuration; it may embed an API key, so it never appears in errors. */
  rpcUrl: string;
  /** Per HTTP request; the crawl's AbortSignal bounds the whole call regardless. */
  requestTimeoutMs?: number;
  /** Transactions read from the address's newest page for its transfer summary (counts and counterparties). */
  summaryPageSize?: number;
  /** Where an address's transfers are read from (EVM_HISTORY_SOURCE); default auto. */
  transferSourceMode?: EvmTransferSourceMode;
  /** The Etherscan v2 account API, when ETHERSCAN_API_KEY is set. */
  etherscan?: EtherscanSettings;
  /** How far back a plain node's logs are searched (EVM_LOGS_WINDOW_BLOCKS, EVM_LOGS_MAX_WINDOWS). */
  logWindows?: BlockWindowSettings;
  /** Counts node calls and failures (the worker's metrics). */
  observer?: HttpObserver;
  /** Largest answer read (HTTP_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
}

const DEFAULT_LOG_WINDOWS: BlockWindowSettings = { windowBlocks: 5_000, maxWindows: 10 };

interface RpcTransaction {
  hash: string;
  from: string;
  to: string | null;
  value: string;
  blockNumber: string | null;
  blockTimestamp?: string | number | null;
}
interface RpcReceipt {
  status: string;
  blockNumber: string;
  blockHash: string;
  contractAddress?: string | null;
  logs: RpcLog[];
}

/** The network's native asset (every EVM network here counts it in 18 decimals, as the EVM does). */
const nativeAssetOf = (chain: EvmChain): Extract<Asset, { kind: 'native' }> => ({
  kind: 'native',
  symbol: EVM_NETWORKS[chain].nativeSymbol,
  decimals: 18,
});

// Token metadata never changes once deployed, but any contract can be a "token", so the cache is bounded.
const TOKEN_CACHE_LIMIT = 1_000;

/** The blocks one job's log reads covered together (each read goes back from the head until its page is full). */
interface LogCoverage {
  read: BlockRange | null;
}

function widen(coverage: LogCoverage, span: BlockRange): void {
  const { read } = coverage;
  if (!read) {
    coverage.read = { ...span };
    return;
  }
  if (span.from < read.from) read.from = span.from;
  if (span.to > read.to) read.to = span.to;
}

/** What a `logs` answer says it searched: the span its job read, or, before any read, the span a read searches. */
function spanText(windows: BlockWindowSettings, coverage: LogCoverage | undefined): string {
  const read = coverage?.read;
  if (!read) return `the newest ${windows.windowBlocks * windows.maxWindows} blocks only`;
  const blocks = read.to - read.from + 1n;
  return `blocks ${read.from} to ${read.to} only (${blocks} blocks read${read.from === 0n ? ', back to genesis' : ''})`;
}

export function createEvmChainClient(options: EvmClientOptions): ChainClient {
  const { chain } = options;
  const nativeAsset = nativeAssetOf(chain);
  const rpc = createEvmRpc({
    chain,
    rpcUrl: options.rpcUrl,
    timeoutMs: options.requestTimeoutMs ?? 10_000,
    observer: options.observer,
    maxResponseBytes: options.maxResponseBytes,
  });
  const tokenCache = new Map<string, Asset>();
  const chainId = createChainIdGuard(chain, rpc);
  let otsSupported: boolean | undefined;
  let tracesSupported: boolean | undefined;

  function normalizeAddress(raw: string): string {
    if (!/^0x[0-9a-fA-F]{40}$/.test(raw)) throw new InvalidAddressError(chain, raw);
    return raw.toLowerCase();
  }

  const ethCall = (to: string, data: string, signal: AbortSignal) =>
    rpc.attempt<string>('eth_call', [{ to, data }, 'latest'], signal);

  async function tokenAsset(contract: string, signal: AbortSignal): Promise<Asset> {
    const cached = tokenCache.get(contract);
    if (cached) return cached;
    const [symbol, decimals] = await Promise.all([
      ethCall(contract, ERC20_SELECTORS.symbol, signal),
      ethCall(contract, ERC20_SELECTORS.decimals, signal),
    ]);
    const asset: Asset = {
      kind: 'token',
      standard: 'erc20',
      contract,
      symbol: symbol === undefined ? null : decodeSymbol(symbol),
      decimals: decimals === undefined ? null : decodeDecimals(decimals),
    };
    if (tokenCache.size >= TOKEN_CACHE_LIMIT) tokenCache.clear();
    tokenCache.set(contract, asset);
    return asset;
  }

  async function timestampOf(tx: RpcTransaction, receipt: RpcReceipt, signal: AbortSignal): Promise<number | null> {
    if (tx.blockTimestamp !== undefined && tx.blockTimestamp !== null) return Number(tx.blockTimestamp);
    // By hash, not number: the receipt's block is the one that included the tx even if the tip reorged since.
    const block = await rpc.request<{ timestamp: string } | null>(
      'eth_getBlockByHash',
      [receipt.blockHash, false],
      signal,
    );
    return block ? Number(block.timestamp) : null;
  }

  async function getTransaction(hash: string, signal: AbortSignal): Promise<ChainTransaction | null> {
    signal.throwIfAborted();
    // No node can know a malformed hash, and sending one would come back as a node error, not "unknown".
    if (!/^0x[0-9a-fA-F]{64}$/.test(hash)) return null;
    await chainId.ensure(signal);
    const txHash = hash.toLowerCase();
    const tx = await rpc.request<RpcTransaction | null>('eth_getTransactionByHash', [txHash], signal);
    if (!tx) return null;
    const receipt = tx.blockNumber
      ? await rpc.request<RpcReceipt | null>('eth_getTransactionReceipt', [txHash], signal)
      : null;
    const status = !receipt ? 'pending' : receipt.status === '0x1' ? 'success' : 'failed';
    const from = tx.from.toLowerCase();
    const to = tx.to?.toLowerCase() ?? null;

    const transfers: Transfer[] = [];
    const value = BigInt(tx.value);
    // A reverted transaction refunds its value, so reporting it as moved would invent exposure.
    if (value > 0n && status !== 'failed') {
      const recipient = to ?? receipt?.contractAddress?.toLowerCase() ?? null;
      transfers.push({ from, to: recipient, asset: nativeAsset, amount: value, source: 'native', index: 0 });
    }
    for (const log of decodeTransferLogs(receipt?.logs ?? [])) {
      const asset = await tokenAsset(log.token, signal);
      transfers.push({ from: log.from, to: log.to, asset, amount: log.amount, source: 'log', index: log.logIndex });
    }
    return {
      chain,
      hash: txHash,
      status,
      blockNumber: receipt ? BigInt(receipt.blockNumber) : null,
      timestamp: receipt ? await timestampOf(tx, receipt, signal) : null,
      from,
      to,
      transfers,
    };
  }

  async function hasOtsApi(signal: AbortSignal): Promise<boolean> {
    // Only a definite answer is cached: a timeout or outage says nothing about the node's API.
    if (otsSupported === undefined)
      otsSupported = (await rpc.attempt<number>('ots_getApiLevel', [], signal)) !== undefined;
    return otsSupported;
  }

  async function hasTraces(signal: AbortSignal): Promise<boolean> {
    // The genesis block alone: no provider refuses that range, so a refusal means "no trace_filter".
    tracesSupported ??=
      (await rpc.attempt<unknown[]>(
        'trace_filter',
        [{ fromBlock: '0x0', toBlock: '0x0', toAddress: [`0x${'0'.repeat(40)}`] }],
        signal,
      )) !== undefined;
    return tracesSupported;
  }

  const otsContext = { rpc, nativeAsset, tokenAsset };
  const otterscan: EvmTransferSource = {
    describe: async () => ({
      name: 'otterscan',
      limitation: 'contract-initiated (internal) native transfers are not in ots pages',
      blindTo: ['internal'],
    }),
    transferSummary: (address, options, signal) => readOtsTransferSummary(otsContext, address, options, signal),
    transfers: (address, options, signal) => readOtsTransfers(otsContext, address, options, signal),
  };
  const etherscanTransfers = options.etherscan
    ? createEtherscanTransfers(chain, options.etherscan, nativeAsset)
    : undefined;
  const etherscan: EvmTransferSource | undefined = etherscanTransfers && {
    describe: async () => ({ name: 'etherscan', limitation: null, blindTo: [] }),
    transferSummary: (address, o, signal) => etherscanTransfers.transferSummary(address, o, signal),
    transfers: (address, o, signal) => etherscanTransfers.transfers(address, o, signal),
  };
  const windows = options.logWindows ?? DEFAULT_LOG_WINDOWS;
  const logTransfers = createLogTransfers({ rpc, nativeAsset, tokenAsset, hasTraces, windows });
  /** The logs source as one job sees it: its reads widen `coverage`, and its report names the span they read. */
  const logsFor = (coverage: LogCoverage | undefined): EvmTransferSource => ({
    describe: async (signal) =>
      (await hasTraces(signal))
        ? {
            name: 'logs',
            limitation: `ERC-20 Transfer logs and trace_filter native transfers over ${spanText(windows, coverage)}`,
            blindTo: [],
          }
        : {
            name: 'logs',
            limitation:
              `ERC-20 Transfer logs over ${spanText(windows, coverage)}; native ${nativeAsset.symbol} transfers ` +
              `are not logs and this node has no trace_filter, so they were not followed`,
            blindTo: ['native', 'internal'],
          },
    // A window of logs cannot say when an address first appeared or how often it received.
    transferSummary: async () => null,
    async transfers(address, o, signal) {
      const { transfers, truncated, span } = await logTransfers.transfers(address, o, signal);
      if (coverage && span) widen(coverage, span);
      return { transfers, truncated };
    },
  });

  type PickSource = (signal: AbortSignal) => Promise<EvmTransferSource>;

  async function getAddressFacts(
    source: PickSource,
    raw: string,
    { tokens, transferLimit }: { tokens: string[]; transferLimit: number },
    signal: AbortSignal,
  ): Promise<AddressFacts> {
    signal.throwIfAborted();
    const address = normalizeAddress(raw);
    await chainId.ensure(signal);
    const [code, balance, nonce] = await Promise.all([
      rpc.request<string>('eth_getCode', [address, 'latest'], signal),
      rpc.request<string>('eth_getBalance', [address, 'latest'], signal),
      rpc.request<string>('eth_getTransactionCount', [address, 'latest'], signal),
    ]);
    const tokenBalances: AddressFacts['tokenBalances'] = [];
    for (const contract of new Set(tokens.map(normalizeAddress))) {
      const answer = await ethCall(contract, balanceOfCallData(address), signal);
      const amount = answer === undefined ? null : decodeUint(answer);
      // Not a token (no code, reverts, odd return): no balance is better than a made-up zero.
      if (amount !== null) tokenBalances.push({ asset: await tokenAsset(contract, signal), amount });
    }
    const transferSummary = await (await source(signal)).transferSummary(
      address,
      { pageSize: options.summaryPageSize ?? 50, transferLimit },
      signal,
    );
    return {
      address,
      isContract: code !== '0x' && code !== '',
      nativeBalance: BigInt(balance),
      tokenBalances,
      outgoingCount: Number(nonce),
      transferSummary,
    };
  }

  /** Both directions, from the source EVM_HISTORY_SOURCE picks (Otterscan, Etherscan or windows of logs). */
  async function getAddressTransfers(
    source: PickSource,
    raw: string,
    { limit }: { limit: number },
    signal: AbortSignal,
  ) {
    const address = normalizeAddress(raw);
    await chainId.ensure(signal);
    return (await source(signal)).transfers(address, { limit }, signal);
  }

  async function transferSource(source: PickSource, signal: AbortSignal) {
    await chainId.ensure(signal);
    return (await source(signal)).describe(signal);
  }

  /**
   * The client over one analysis' state (`forAnalysis`, as the engine binds a client per analysis) or over none (a
   * read outside an analysis). What an analysis learns stays in it: the span its log reads covered, named in its own
   * crawl report.
   */
  function view(coverage: LogCoverage | undefined): ChainClient {
    const logs = logsFor(coverage);
    const source: PickSource = (signal) =>
      pickTransferSource(
        { chain, mode: options.transferSourceMode ?? 'auto', hasOts: hasOtsApi, otterscan, etherscan, logs },
        signal,
      );
    return {
      chain,
      nativeAsset,
      normalizeAddress,
      getTransaction,
      getAddressFacts: (raw, o, signal) => getAddressFacts(source, raw, o, signal),
      getAddressTransfers: (raw, o, signal) => getAddressTransfers(source, raw, o, signal),
      transferSource: (signal) => transferSource(source, signal),
      forAnalysis: () => view({ read: null }),
    };
  }

  return view(undefined);
}
