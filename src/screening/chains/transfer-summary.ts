import type { TransferSummary, AddressTransfer, Asset } from './chain-client';

/**
 * The TransferSummary a sampled page of movements supports (Tron and Solana, whose providers have
 * no per-address counters).
 */
export function summarizeTransfers(
  transfers: AddressTransfer[],
  truncated: boolean,
  limit: number,
  firstSeen: number | null,
): TransferSummary {
  const inbound = transfers.filter((t) => t.direction === 'in');
  const senders = new Map<string, { address: string; asset: Asset; amount: bigint }>();
  for (const t of inbound) {
    const key = `${t.counterparty}|${t.asset.kind === 'native' ? 'native' : t.asset.contract}`;
    const seen = senders.get(key);
    if (seen) seen.amount += t.amount;
    else senders.set(key, { address: t.counterparty, asset: t.asset, amount: t.amount });
  }
  const times = transfers.flatMap((t) => (t.timestamp === null ? [] : [t.timestamp]));
  return {
    // Only a complete read of its transfers shows the first movement; a cut one would make an old address look new.
    firstSeen: firstSeen ?? (truncated || times.length === 0 ? null : Math.min(...times)),
    lastSeen: times.length ? Math.max(...times) : null,
    inboundCount: new Set(inbound.map((t) => t.txid)).size,
    inboundCounterparties: [...senders.values()].slice(0, Math.max(0, limit)),
    truncated,
  };
}
