import type { Chain } from './chain';
import type {
  TransferSummary,
  AddressTransfer,
  Asset,
  ChainTransaction,
  Transfer,
  UtxoTransaction,
} from './chain-client';

type NativeAsset = Extract<Asset, { kind: 'native' }>;

export const BTC = { kind: 'native', symbol: 'BTC', decimals: 8 } as const satisfies NativeAsset;

/** The chain a UTXO client reads and its coin: every flow it reports moves that coin, in its base units. */
export interface UtxoCoin {
  readonly chain: Chain;
  readonly asset: NativeAsset;
}

export const BITCOIN_COIN: UtxoCoin = { chain: 'bitcoin', asset: BTC };

/**
 * The address's value flow in one transaction. Funding any input makes it a sender: each other output is an
 * outgoing edge (change back to itself is not a movement). Otherwise it received, and the received sum is split
 * across the input addresses in proportion to their input value: a UTXO transaction does not say which input paid
 * which output, so value-weighted attribution ("haircut") is the neutral choice for exposure. Inputs without an
 * address (P2PK, bare multisig) keep their weight but yield no edge; the rounding remainder goes to the largest input.
 */
export function utxoFlowOf(
  tx: UtxoTransaction,
  address: string,
): { direction: 'in' | 'out'; edges: Map<string, bigint> } {
  const edges = new Map<string, bigint>();
  const add = (to: string, amount: bigint) => edges.set(to, (edges.get(to) ?? 0n) + amount);
  if (tx.inputs.some((i) => i.address === address)) {
    for (const o of tx.outputs) if (o.address && o.address !== address) add(o.address, o.value);
    return { direction: 'out', edges };
  }
  const received = tx.outputs.reduce((sum, o) => (o.address === address ? sum + o.value : sum), 0n);
  const total = tx.inputs.reduce((sum, i) => sum + i.value, 0n);
  if (received === 0n || total === 0n) return { direction: 'in', edges };
  let given = 0n;
  let largest: UtxoTransaction['inputs'][number] | undefined;
  for (const input of tx.inputs) {
    if (!input.address) continue;
    const share = (received * input.value) / total;
    given += share;
    add(input.address, share);
    if (!largest || input.value > largest.value) largest = input;
  }
  // Only when every input has an address does the remainder belong to someone known.
  if (largest?.address && tx.inputs.every((i) => i.address)) add(largest.address, received - given);
  return { direction: 'in', edges };
}

/**
 * The address's edges over a page of its transactions (newest first), at most `limit` in EACH direction (one spend
 * into a CoinJoin has a hundred out-edges: counted together, they would push every inflow off the page, and the crawl
 * traces sources upstream and destinations downstream separately); `cut` says edges were left out. `inboundTxs`
 * counts the transactions in which it received without funding an input.
 */
export function utxoTransfersOf(
  txs: readonly UtxoTransaction[],
  address: string,
  limit: number,
  asset: NativeAsset,
): { transfers: AddressTransfer[]; inboundTxs: number; cut: boolean } {
  const transfers: AddressTransfer[] = [];
  const kept = { in: 0, out: 0 };
  let inboundTxs = 0;
  let cut = false;
  for (const tx of txs) {
    const { direction, edges } = utxoFlowOf(tx, address);
    if (direction === 'in' && tx.outputs.some((o) => o.address === address)) inboundTxs += 1;
    for (const [counterparty, amount] of edges) {
      if (kept[direction] >= limit) {
        cut = true;
        continue;
      }
      kept[direction] += 1;
      transfers.push({ txid: tx.txid, timestamp: tx.timestamp, direction, counterparty, asset, amount });
    }
  }
  return { transfers, inboundTxs, cut };
}

/**
 * The facts' transfer summary of one read page: senders by value received from them (at most `transferLimit`), and
 * the first-seen time only when the page reached the address's first transaction.
 */
export function utxoTransferSummary(
  txs: readonly UtxoTransaction[],
  page: { transfers: readonly AddressTransfer[]; inboundTxs: number; truncated: boolean },
  transferLimit: number,
  asset: NativeAsset,
): TransferSummary {
  const senders = new Map<string, bigint>();
  for (const t of page.transfers)
    if (t.direction === 'in') senders.set(t.counterparty, (senders.get(t.counterparty) ?? 0n) + t.amount);
  const times = txs.map((t) => t.timestamp).filter((t): t is number => t !== null);
  return {
    // The oldest sampled transaction is only the first one when the sample reached the start.
    firstSeen: page.truncated || times.length === 0 ? null : Math.min(...times),
    lastSeen: times.length === 0 ? null : Math.max(...times),
    inboundCount: page.inboundTxs,
    inboundCounterparties: [...senders]
      .slice(0, Math.max(0, transferLimit))
      .map(([address, amount]) => ({ address, asset, amount })),
    truncated: page.truncated,
  };
}

/**
 * A UTXO transaction as the engine reads one: its inputs (spent outputs, coinbase left out) as transfers from their
 * address, then its outputs as transfers to theirs. Zero-value outputs (OP_RETURN) carry no funds to trace.
 */
export function utxoChainTransaction(
  tx: UtxoTransaction,
  where: { status: 'success' | 'pending'; blockNumber: bigint | null; coinbase: boolean },
  { chain, asset }: UtxoCoin,
): ChainTransaction {
  const transfers: Transfer[] = [];
  for (const input of tx.inputs)
    transfers.push({
      from: input.address,
      to: null,
      asset,
      amount: input.value,
      source: 'utxo',
      index: transfers.length,
    });
  for (const output of tx.outputs) {
    if (output.value === 0n) continue;
    transfers.push({
      from: null,
      to: output.address,
      asset,
      amount: output.value,
      source: 'utxo',
      index: transfers.length,
    });
  }
  return {
    chain,
    hash: tx.txid,
    status: where.status,
    blockNumber: where.blockNumber,
    timestamp: tx.timestamp,
    from: tx.inputs.find((i) => i.address)?.address ?? (where.coinbase ? 'coinbase' : 'unknown'),
    to: tx.outputs.find((o) => o.address)?.address ?? null,
    transfers,
  };
}
