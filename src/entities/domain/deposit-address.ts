import type { AddressTransfer } from '../../screening';

/**
 * The deposit-address heuristic (Victor, "Address clustering heuristics for Ethereum", FC 2020): an exchange gives
 * each customer an address of its own and sweeps whatever arrives there to its hot wallet soon after. So an address
 * that received from outside and forwarded (nearly) everything to ONE address, each time within a short window, is
 * a deposit address of that address's entity. An ordinary wallet pays several people, keeps a balance, or waits.
 */
export interface DepositForward {
  /** The one address everything was forwarded to. */
  hotWallet: string;
  /** The earliest forward checked: the transaction that first showed the pattern (the link's evidence). */
  txid: string;
  /** The smallest share of its receipts any checked forward carried, 0..1. */
  forwardedShare: number;
}

export interface DepositForwardOptions {
  /**
   * The least share of what arrived since the previous forward (of that asset) each forward must carry. 0.95 leaves
   * room for the gas a native-coin sweep pays out of the amount itself, and for dust left behind.
   */
  minForwardShare?: number;
  /**
   * How long after the oldest receipt it empties a forward may come. 24 hours: exchanges sweep deposit addresses
   * within minutes to hours (Victor's "shortly after"), some on a daily schedule; a person who received money and
   * paid all of it to one address a day later is rarer, and the one-destination rule below still has to hold.
   */
  windowSeconds?: number;
  /** The least number of receipts from senders other than the hot wallet. */
  minInbound?: number;
}

export const DEPOSIT_DEFAULTS = { minForwardShare: 0.95, windowSeconds: 86_400, minInbound: 1 } as const;

const assetKey = (t: AddressTransfer): string =>
  t.asset.kind === 'native' ? 'native' : `${t.asset.standard}:${t.asset.contract.toLowerCase()}`;

/**
 * The hot wallet `address` forwards to, when its transfers (any order, as a client returns them) have the deposit
 * shape; null otherwise:
 * - every outbound transfer goes to one address (any second destination: an ordinary wallet);
 * - at least `minInbound` receipts come from senders other than that address;
 * - per asset it forwarded, each forward carries at least `minForwardShare` of what arrived since the previous
 *   forward and comes within `windowSeconds` after the oldest of those receipts. Assets received and never
 *   forwarded are not judged: deposit addresses collect airdropped spam tokens and gas the exchange never sweeps;
 * - no transaction both sends to and receives at the address: that is a swap or a round trip, not a forward (a DEX
 *   pool or router would otherwise be every swapper's "hot wallet").
 * Zero-amount transfers are ignored (they move nothing, and address-poisoning spam fakes them from any address);
 * a transfer without a timestamp makes the window uncheckable, so null. A forward of an asset with no visible receipt
 * before it empties receipts older than the page the client returned, and is neither proof nor disproof.
 */
export function depositForward(
  address: string,
  transfers: readonly AddressTransfer[],
  options: DepositForwardOptions = {},
): DepositForward | null {
  const { minForwardShare, windowSeconds, minInbound } = { ...DEPOSIT_DEFAULTS, ...options };
  const moves = transfers.filter((t) => t.amount > 0n && t.counterparty !== address);
  const outs = moves.filter((t) => t.direction === 'out');
  const destinations = new Set(outs.map((t) => t.counterparty));
  if (destinations.size !== 1) return null;
  const hotWallet = outs[0]!.counterparty;
  const ins = moves.filter((t) => t.direction === 'in');
  if (ins.filter((t) => t.counterparty !== hotWallet).length < minInbound) return null;
  const inTxids = new Set(ins.map((t) => t.txid));
  if (outs.some((t) => inTxids.has(t.txid))) return null;
  if (moves.some((t) => t.timestamp === null)) return null;

  // Oldest first; in one block a receipt comes before the forward that empties it.
  const inFirst = (t: AddressTransfer) => (t.direction === 'in' ? 0 : 1);
  const ordered = [...moves].sort(
    (x, y) => (x.timestamp as number) - (y.timestamp as number) || inFirst(x) - inFirst(y),
  );
  const held = new Map<string, { amount: bigint; oldest: number | null }>();
  let first: string | null = null;
  let least = 1;
  for (const t of ordered) {
    const key = assetKey(t);
    const state = held.get(key) ?? { amount: 0n, oldest: null };
    held.set(key, state);
    const at = t.timestamp as number;
    if (t.direction === 'in') {
      state.amount += t.amount;
      state.oldest ??= at;
      continue;
    }
    if (state.amount === 0n || state.oldest === null) continue;
    // Basis points in bigint: amounts of 18-decimal tokens overflow a double's integer range.
    const share = Math.min(1, Number((t.amount * 10_000n) / state.amount) / 10_000);
    if (share < minForwardShare || at - state.oldest > windowSeconds) return null;
    least = Math.min(least, share);
    first ??= t.txid;
    state.amount = state.amount > t.amount ? state.amount - t.amount : 0n;
    // What stays behind (at most 1 - minForwardShare) is dust, not a receipt waiting for its sweep.
    state.oldest = null;
  }
  return first === null ? null : { hotWallet, txid: first, forwardedShare: least };
}
