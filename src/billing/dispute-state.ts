/**
 * A payment dispute (PayPal CUSTOMER.DISPUTE.*) as the events so far describe it. Open or lost, its amount counts as
 * money gone back (the payment's credits are taken back, refund-credits.ts); won, it counts for nothing (they are
 * reinstated). Any delivery order of the same events ends in the same state.
 */
export type DisputeStatus = 'open' | 'lost' | 'won';

export interface DisputeState {
  status: DisputeStatus;
  amountCents: number;
  outcomeCode: string | null;
  /** The resource's update_time (ISO); null when PayPal sent none. */
  version: string | null;
}

const time = (iso: string | null): number => (iso ? Date.parse(iso) : Number.NEGATIVE_INFINITY);

/**
 * Folds one event's view of the dispute into the stored one: a resolution beats an open dispute whatever their order
 * (a late CREATED never reopens it); otherwise the newer resource stands (of two resolutions: the appeal's).
 */
export function foldDispute(stored: DisputeState | null, incoming: DisputeState): DisputeState {
  if (!stored) return incoming;
  if (incoming.status === 'open' && stored.status !== 'open') return stored;
  if (stored.status === 'open' && incoming.status !== 'open') return incoming;
  return time(incoming.version) > time(stored.version) ? incoming : stored;
}

/** Money the dispute holds back from the payment: all of it while open or lost, none once won. */
export const disputedCents = (d: Pick<DisputeState, 'status' | 'amountCents'>): number =>
  d.status === 'won' ? 0 : d.amountCents;

/**
 * PayPal's dispute_outcome.outcome_code: won when the buyer kept no money back (the merchant won, the buyer cancelled,
 * the claim was denied); anything else is lost: the buyer's favour, accepted, a payout (PayPal paid the buyer, who is
 * made whole either way), NONE or a code this service does not know.
 */
const MERCHANT_KEEPS = new Set(['RESOLVED_SELLER_FAVOUR', 'CANCELED_BY_BUYER', 'DENIED']);
export const resolvedStatus = (outcomeCode: string | null): DisputeStatus =>
  outcomeCode !== null && MERCHANT_KEEPS.has(outcomeCode) ? 'won' : 'lost';
