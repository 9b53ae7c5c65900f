import type { UtxoTransaction } from '../../screening';
import type { ClusterLink } from './cluster-link';
import { coinJoinShape, DUST_SATS } from './coinjoin';

/**
 * Common-input ownership (Nakamoto's whitepaper §10; the multi-input rule of GraphSense and BlockSci): whoever
 * signed every input of a transaction holds all their keys, so the input addresses are one entity. Not for a
 * CoinJoin, whose inputs are many people's (coinjoin.ts). Links form a star from the smallest input address to each
 * other one: n addresses need n - 1 links, and sorting makes the same transaction give the same links on every read.
 * `dust`: the chain's bound in its base units (coinjoin.ts dustOf).
 */
export function commonInputLinks(tx: UtxoTransaction, dust: bigint = DUST_SATS): ClusterLink[] {
  const addresses = [...new Set(tx.inputs.flatMap((i) => (i.address === null ? [] : [i.address])))].sort();
  if (addresses.length < 2 || coinJoinShape(tx, dust) !== null) return [];
  const [hub, ...rest] = addresses as [string, ...string[]];
  return rest.map((b) => ({ a: hub, b, heuristic: 'common_input' as const, txid: tx.txid }));
}
