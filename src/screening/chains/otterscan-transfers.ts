import type { TransferSummary, AddressTransfer, Asset } from './chain-client';
import { decodeTransferLogs, type RpcLog } from './evm-logs';
import type { EvmRpc } from './evm-rpc';

/** Otterscan `ots_searchTransactions*` page: txs and their receipts (which carry the block timestamp). */
interface OtsTx {
  hash: string;
  from: string;
  to: string | null;
  value: string;
  blockNumber: string;
  transactionIndex?: string | null;
  blockTimestamp?: string | number | null;
}
interface OtsReceipt {
  transactionHash: string;
  status?: string | null;
  logs?: RpcLog[];
  timestamp?: string | number | null;
}
interface OtsPage {
  txs: OtsTx[];
  receipts: OtsReceipt[];
  lastPage: boolean;
}
interface Entry {
  tx: OtsTx;
  receipt: OtsReceipt | undefined;
  block: bigint;
  position: number;
}

export interface OtsReadContext {
  rpc: EvmRpc;
  nativeAsset: Asset;
  tokenAsset(contract: string, signal: AbortSignal): Promise<Asset>;
}

/** Newest first, whatever order the node used (Erigon and anvil both return descending pages, the spec is loose). */
function entries(page: OtsPage): Entry[] {
  const receipts = new Map(page.receipts.map((r) => [r.transactionHash.toLowerCase(), r]));
  return page.txs
    .map((tx) => ({
      tx,
      receipt: receipts.get(tx.hash.toLowerCase()),
      block: BigInt(tx.blockNumber),
      position: tx.transactionIndex ? Number(tx.transactionIndex) : 0,
    }))
    .sort((a, b) => (a.block === b.block ? b.position - a.position : a.block > b.block ? -1 : 1));
}

async function timestampOf(ctx: OtsReadContext, entry: Entry | undefined, signal: AbortSignal): Promise<number | null> {
  if (!entry) return null;
  const known = entry.receipt?.timestamp ?? entry.tx.blockTimestamp;
  if (known !== undefined && known !== null) return Number(known);
  const block = await ctx.rpc.request<{ timestamp: string } | null>(
    'eth_getBlockByNumber',
    [entry.tx.blockNumber, false],
    signal,
  );
  return block ? Number(block.timestamp) : null;
}

export async function readOtsTransferSummary(
  ctx: OtsReadContext,
  address: string,
  options: { pageSize: number; transferLimit: number },
  signal: AbortSignal,
): Promise<TransferSummary> {
  // Block 0 means "from the tip" for Before and "from genesis" for After.
  const newestPage = await ctx.rpc.request<OtsPage>(
    'ots_searchTransactionsBefore',
    [address, 0, options.pageSize],
    signal,
  );
  const newest = entries(newestPage);
  // A page that reached the oldest transaction already holds firstSeen; otherwise one more small call finds it.
  const oldest = newestPage.lastPage
    ? newest
    : entries(await ctx.rpc.request<OtsPage>('ots_searchTransactionsAfter', [address, 0, 1], signal));

  let inboundCount = 0;
  const senders = new Map<string, { address: string; token: string | null; amount: bigint }>();
  const credit = (from: string, token: string | null, amount: bigint) => {
    const key = `${from}|${token ?? 'native'}`;
    const seen = senders.get(key);
    if (seen) seen.amount += amount;
    else senders.set(key, { address: from, token, amount });
  };
  for (const { tx, receipt } of newest) {
    // A reverted transaction moved nothing, even though it names the address.
    if (receipt?.status === '0x0') continue;
    let inbound = false;
    const value = BigInt(tx.value);
    if (tx.to?.toLowerCase() === address && value > 0n) {
      inbound = true;
      credit(tx.from.toLowerCase(), null, value);
    }
    for (const transfer of decodeTransferLogs(receipt?.logs ?? [])) {
      if (transfer.to !== address) continue;
      inbound = true;
      if (transfer.from) credit(transfer.from, transfer.token, transfer.amount);
    }
    if (inbound) inboundCount++;
  }

  const top = [...senders.values()].slice(0, Math.max(0, options.transferLimit));
  const inboundCounterparties = [];
  for (const sender of top) {
    const asset = sender.token ? await ctx.tokenAsset(sender.token, signal) : ctx.nativeAsset;
    inboundCounterparties.push({ address: sender.address, asset, amount: sender.amount });
  }
  return {
    firstSeen: await timestampOf(ctx, oldest[oldest.length - 1], signal),
    lastSeen: await timestampOf(ctx, newest[0], signal),
    inboundCount,
    inboundCounterparties,
    truncated: !newestPage.lastPage,
  };
}

/**
 * The address's value movements from its newest ots page, both directions: native value of each
 * transaction and every ERC-20 Transfer log naming the address. Reverted transactions and zero-value
 * transfers (address-poisoning spam) are left out. Newest first.
 */
export async function readOtsTransfers(
  ctx: OtsReadContext,
  address: string,
  options: { limit: number },
  signal: AbortSignal,
): Promise<{ transfers: AddressTransfer[]; truncated: boolean }> {
  const page = await ctx.rpc.request<OtsPage>(
    'ots_searchTransactionsBefore',
    [address, 0, Math.max(1, options.limit)],
    signal,
  );
  const transfers: AddressTransfer[] = [];
  const tokenAssets = new Map<string, Asset>();
  for (const { tx, receipt } of entries(page)) {
    if (receipt?.status === '0x0') continue;
    const timestamp = receipt?.timestamp ?? tx.blockTimestamp;
    const at = timestamp === undefined || timestamp === null ? null : Number(timestamp);
    const value = BigInt(tx.value);
    const from = tx.from.toLowerCase();
    const to = tx.to?.toLowerCase() ?? null;
    if (value > 0n && to === address)
      transfers.push({
        txid: tx.hash,
        timestamp: at,
        direction: 'in',
        counterparty: from,
        asset: ctx.nativeAsset,
        amount: value,
      });
    if (value > 0n && from === address && to)
      transfers.push({
        txid: tx.hash,
        timestamp: at,
        direction: 'out',
        counterparty: to,
        asset: ctx.nativeAsset,
        amount: value,
      });
    for (const t of decodeTransferLogs(receipt?.logs ?? [])) {
      if (t.amount === 0n || (t.to !== address && t.from !== address)) continue;
      const asset = tokenAssets.get(t.token) ?? (await ctx.tokenAsset(t.token, signal));
      tokenAssets.set(t.token, asset);
      if (t.to === address && t.from)
        transfers.push({
          txid: tx.hash,
          timestamp: at,
          direction: 'in',
          counterparty: t.from,
          asset,
          amount: t.amount,
        });
      if (t.from === address && t.to)
        transfers.push({ txid: tx.hash, timestamp: at, direction: 'out', counterparty: t.to, asset, amount: t.amount });
    }
  }
  return { transfers, truncated: !page.lastPage };
}
