import type { UtxoTransaction } from '../../screening';

/**
 * Which public CoinJoin shape a bitcoin transaction has, or null. A CoinJoin's inputs belong to many people, so
 * common-input ownership must not merge them (common-input.ts). The two errors cost differently: calling an
 * ordinary payment a CoinJoin only loses one merge (that wallet's cluster stays smaller), while missing a CoinJoin
 * joins strangers for good and can carry a sanctions label to all of them. The thresholds lean that way.
 *
 * Thresholds (all on exactly equal output values; outputs of at most the chain's dust never count as equal
 * denominations):
 * - whirlpool: exactly 5 inputs from 5 distinct addresses and exactly 5 outputs of one value. Samourai's pools are
 *   0.001 / 0.01 / 0.05 / 0.5 BTC, but any equal value matches, so a new pool size is caught too.
 * - wasabi: at least 10 distinct input addresses, at least 10 outputs, and at least 2 values each shared by 2 or more
 *   outputs (WabiSabi's standard denominations repeat across participants). Real rounds gather dozens to hundreds
 *   of inputs; 10 keeps well clear of what one wallet spends at once (most transactions have 1 or 2 inputs).
 *   Below 10 inputs the JoinMarket and equal-output rules still apply, so this threshold only picks the name.
 * - joinmarket: n >= 3 outputs of one value (one per participant), at most n other outputs (each participant's
 *   change), and at least n distinct input addresses (each participant spends at least one coin).
 * - equal-outputs: any other n >= 2 outputs of one value with at least n distinct input addresses; for n = 2 only
 *   with at most 4 outputs (two participants, each with at most one change: Samourai's Stonewall/Stonewall x2 and
 *   two-party JoinMarket shapes). Cost: a wallet spending 2+ addresses to pay two equal amounts (plus change) is
 *   called a CoinJoin and left unmerged.
 *
 * Never a CoinJoin: fewer distinct input addresses than equal outputs (a batch payout of equal amounts from one
 * wallet with 1 or 2 inputs), a single output (a consolidation), a payment with unequal outputs.
 */
export type CoinJoinShape = 'whirlpool' | 'wasabi' | 'joinmarket' | 'equal-outputs';

/**
 * Identical outputs this small are protocol markers or spam (546 and 2,730 sats were the old dust limits that
 * Counterparty/Omni-style transactions repeat many times), not mixed denominations.
 */
export const DUST_SATS = 2_730n;

/**
 * The same bound in each UTXO network's own base units, where its coin's worth puts dust elsewhere:
 * - bitcoin-cash: bitcoin's history up to the fork, and the same 546-sat relay dust since;
 * - litecoin: Litecoin Core's dust relay fee is ten times bitcoin's (30,000 litoshi/kvB), so a standard output's
 *   dust is 5,460 litoshi;
 * - dogecoin: Dogecoin Core's soft dust limit, 0.01 DOGE (doc/fee-recommendation.md, 1.14.5): each output under it
 *   pays 0.01 DOGE more, so only markers repeat such outputs (DRC-20's are 0.001 DOGE, the hard limit). At
 *   bitcoin's 2,730 units (0.0000273 DOGE) they would pass for a denomination, and a wallet's own multi-input
 *   transaction would be called a CoinJoin and left unmerged.
 */
const DUST_BY_CHAIN: Readonly<Record<string, bigint>> = {
  bitcoin: DUST_SATS,
  'bitcoin-cash': DUST_SATS,
  litecoin: 5_460n,
  dogecoin: 1_000_000n,
};

/** `chain`'s dust bound in its base units (bitcoin's for a chain not listed). */
export const dustOf = (chain: string): bigint => DUST_BY_CHAIN[chain] ?? DUST_SATS;
export const WHIRLPOOL_SIZE = 5;
export const WASABI_MIN_INPUTS = 10;
export const WASABI_MIN_OUTPUTS = 10;
export const WASABI_MIN_DENOMINATIONS = 2;

/** `dust`: the chain's bound in its base units (dustOf); outputs at or under it never count as a denomination. */
export function coinJoinShape(tx: UtxoTransaction, dust: bigint = DUST_SATS): CoinJoinShape | null {
  const inputAddresses = new Set(tx.inputs.flatMap((i) => (i.address === null ? [] : [i.address]))).size;
  if (inputAddresses < 2) return null;
  const valued = tx.outputs.filter((o) => o.value > 0n);
  const counts = new Map<bigint, number>();
  for (const o of valued) if (o.value > dust) counts.set(o.value, (counts.get(o.value) ?? 0) + 1);
  const equal = Math.max(0, ...counts.values());
  if (equal < 2) return null;

  if (
    tx.inputs.length === WHIRLPOOL_SIZE &&
    inputAddresses === WHIRLPOOL_SIZE &&
    tx.outputs.length === WHIRLPOOL_SIZE &&
    equal === WHIRLPOOL_SIZE
  )
    return 'whirlpool';

  const denominations = [...counts.values()].filter((n) => n >= 2).length;
  if (
    inputAddresses >= WASABI_MIN_INPUTS &&
    valued.length >= WASABI_MIN_OUTPUTS &&
    denominations >= WASABI_MIN_DENOMINATIONS
  )
    return 'wasabi';

  // Fewer owners than equal outputs: one wallet paying several people the same amount.
  if (inputAddresses < equal) return null;
  if (equal >= 3 && valued.length - equal <= equal) return 'joinmarket';
  if (equal >= 3 || valued.length <= 4) return 'equal-outputs';
  return null;
}
