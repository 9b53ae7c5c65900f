import type { AddressTransfer, Asset } from './chain-client';
import {
  DEFAULT_MAX_LOGS_PER_WINDOW,
  searchSpan,
  walkWindows,
  type BlockRange,
  type BlockWindowSettings,
} from './evm-block-windows';
import { decodeTransferLogs, TRANSFER_TOPIC, type RpcLog } from './evm-logs';
import type { EvmRpc } from './evm-rpc';

/** eth_getLogs items carry where they sit; some nodes (geth ≥ 1.14, anvil) add the block time too. */
interface WindowLog extends RpcLog {
  transactionHash: string;
  blockNumber: string;
  transactionIndex?: string | null;
  removed?: boolean;
  blockTimestamp?: string | null;
}

/** Parity-style trace (trace_filter): Erigon, Reth, Nethermind, anvil; geth has none. */
interface Trace {
  type: string;
  action: {
    from?: string;
    to?: string;
    value?: string;
    callType?: string;
    address?: string;
    refundAddress?: string;
    balance?: string;
  };
  result?: { address?: string } | null;
  error?: string;
  traceAddress: number[];
  transactionHash?: string | null;
  transactionPosition?: number | null;
  blockNumber: number | string;
}

export interface LogTransfersContext {
  rpc: EvmRpc;
  nativeAsset: Asset;
  tokenAsset(contract: string, signal: AbortSignal): Promise<Asset>;
  /** Whether the node answers trace_filter (native transfers); asked once per client. */
  hasTraces(signal: AbortSignal): Promise<boolean>;
  windows: BlockWindowSettings;
}

export interface LogTransfers {
  /** The newest movements, and `span`: the blocks actually read (null when the head alone was not). */
  transfers(
    address: string,
    options: { limit: number },
    signal: AbortSignal,
  ): Promise<{ transfers: AddressTransfer[]; truncated: boolean; span: BlockRange | null }>;
}

// Final receipts never change; the memo is bounded only because a client lives as long as the worker.
const RECEIPT_MEMO_LIMIT = 10_000;
const hex = (n: bigint) => `0x${n.toString(16)}`;
const topicOf = (address: string) => `0x${address.slice(2).padStart(64, '0')}`;

interface Found {
  block: bigint;
  order: number;
  transfer: AddressTransfer;
  /** ERC-20 contract whose asset metadata is still to be read. */
  token?: string;
  /** A native movement from a trace, whose transaction may have reverted around it. */
  trace?: Trace;
}

const newestFirst = (a: Found, b: Found) => (a.block === b.block ? b.order - a.order : a.block > b.block ? -1 : 1);

/**
 * An address's transfers from a plain JSON-RPC node: ERC-20 Transfer logs naming the address as sender
 * (topic 1) or recipient (topic 2), and, when the node has trace_filter, native transfers to and from
 * it (top-level and contract-initiated). Each read walks back from the head in windows of `windowBlocks`
 * over at most windowBlocks × maxWindows blocks until `limit` movements are found (evm-block-windows.ts): a
 * window the node calls too large is halved for the rest of that read only, and a window keeps at most
 * `maxLogsPerWindow` movements, its newest. Without trace_filter native ETH/BNB movements are invisible
 * here: they are not logs.
 */
export function createLogTransfers(ctx: LogTransfersContext): LogTransfers {
  const receiptOk = new Map<string, boolean>();
  const maxPerWindow = ctx.windows.maxLogsPerWindow ?? DEFAULT_MAX_LOGS_PER_WINDOW;

  // One call per query and window: a refusal is the walk's to handle (it halves the window and asks again).
  const logs = (topics: (string | null)[], range: BlockRange, signal: AbortSignal) =>
    ctx.rpc.request<WindowLog[]>(
      'eth_getLogs',
      [{ fromBlock: hex(range.from), toBlock: hex(range.to), topics }],
      signal,
    );

  const traces = (side: 'fromAddress' | 'toAddress', address: string, range: BlockRange, signal: AbortSignal) =>
    ctx.rpc.request<Trace[]>(
      'trace_filter',
      [{ fromBlock: hex(range.from), toBlock: hex(range.to), [side]: [address] }],
      signal,
    );

  /** A call inside a reverted transaction carries no error of its own: the receipt says whether it stood. */
  async function standing(trace: Trace, signal: AbortSignal): Promise<boolean> {
    if (trace.traceAddress.length === 0 || !trace.transactionHash) return true;
    const hash = trace.transactionHash.toLowerCase();
    if (!receiptOk.has(hash)) {
      if (receiptOk.size >= RECEIPT_MEMO_LIMIT) receiptOk.clear();
      const receipt = await ctx.rpc.request<{ status?: string } | null>('eth_getTransactionReceipt', [hash], signal);
      receiptOk.set(hash, receipt?.status !== '0x0');
    }
    return receiptOk.get(hash) ?? true;
  }

  /** Value-moving traces only: plain calls (not delegate/static), creations and self-destructs. */
  function traceMove(trace: Trace): { from: string; to: string; amount: bigint } | null {
    const a = trace.action;
    if (trace.type === 'call' && (a.callType === undefined || a.callType === 'call') && a.from && a.to && a.value)
      return { from: a.from, to: a.to, amount: BigInt(a.value) };
    if (trace.type === 'create' && a.from && trace.result?.address && a.value)
      return { from: a.from, to: trace.result.address, amount: BigInt(a.value) };
    if (trace.type === 'suicide' && a.address && a.refundAddress && a.balance)
      return { from: a.address, to: a.refundAddress, amount: BigInt(a.balance) };
    return null;
  }

  /** Candidates of one window; token assets and reverted-parent checks are decided later, for the kept page only. */
  async function readWindow(
    address: string,
    range: BlockRange,
    withTraces: boolean,
    signal: AbortSignal,
  ): Promise<Found[]> {
    const found: Found[] = [];
    const topic = topicOf(address);
    const [sent, received] = [
      await logs([TRANSFER_TOPIC, topic], range, signal),
      await logs([TRANSFER_TOPIC, null, topic], range, signal),
    ];
    for (const log of [...sent, ...received]) {
      if (log.removed) continue;
      const [t] = decodeTransferLogs([log]);
      if (!t || t.amount === 0n || !t.from || !t.to || t.from === t.to) continue;
      const out = t.from === address;
      found.push({
        block: BigInt(log.blockNumber),
        order: Number(log.transactionIndex ?? 0) * 1e6 + t.logIndex,
        token: t.token,
        transfer: {
          txid: log.transactionHash.toLowerCase(),
          timestamp: log.blockTimestamp ? Number(log.blockTimestamp) : null,
          direction: out ? 'out' : 'in',
          counterparty: out ? t.to : t.from,
          asset: ctx.nativeAsset,
          amount: t.amount,
        },
      });
    }
    if (withTraces) {
      const all = [
        ...(await traces('fromAddress', address, range, signal)),
        ...(await traces('toAddress', address, range, signal)),
      ];
      for (const trace of all) {
        const move = traceMove(trace);
        if (trace.error || !move || move.amount === 0n || !trace.transactionHash) continue;
        const [from, to] = [move.from.toLowerCase(), move.to.toLowerCase()];
        if (from === to || (from !== address && to !== address)) continue;
        const out = from === address;
        found.push({
          block: BigInt(trace.blockNumber),
          // Native value moves before the logs its call emits; position keeps transactions apart.
          order: (trace.transactionPosition ?? 0) * 1e6 - 1,
          trace,
          transfer: {
            txid: trace.transactionHash.toLowerCase(),
            timestamp: null,
            direction: out ? 'out' : 'in',
            counterparty: out ? to : from,
            asset: ctx.nativeAsset,
            amount: move.amount,
          },
        });
      }
    }
    return found;
  }

  return {
    async transfers(address, { limit }, signal) {
      const head = BigInt(await ctx.rpc.request<string>('eth_blockNumber', [], signal));
      const withTraces = await ctx.hasTraces(signal);
      // One more than the page tells whether older movements exist; a window never keeps fewer than that.
      const keep = Math.max(limit + 1, maxPerWindow);
      const found: Found[] = [];
      const span = await walkWindows(searchSpan(head, ctx.windows), ctx.windows.windowBlocks, async (range) => {
        const window = (await readWindow(address, range, withTraces, signal)).sort(newestFirst);
        found.push(...window.slice(0, keep));
        return found.length >= limit ? 'enough' : 'more';
      });
      found.sort(newestFirst);
      // Only the kept page costs calls: a spam-token hub would otherwise need two eth_calls per token.
      const transfers: AddressTransfer[] = [];
      for (const f of found.slice(0, limit)) {
        if (f.trace && !(await standing(f.trace, signal))) continue;
        transfers.push(f.token ? { ...f.transfer, asset: await ctx.tokenAsset(f.token, signal) } : f.transfer);
      }
      return { transfers, truncated: found.length > limit || span === null || span.from > 0n, span };
    },
  };
}
