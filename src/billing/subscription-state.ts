import type { PayPalSubscriptionChange, PayPalSubscriptionEventType } from './paypal/paypal-event';

/** A stored subscription as the events so far describe it. Times are ISO strings. */
export interface SubscriptionState {
  status: string;
  planId: string | null;
  packageId: string | null;
  nextBillingTime: string | null;
  lastPaymentAt: string | null;
  lastFailedPaymentAt: string | null;
  lastFailureReason: string | null;
  cancelledAt: string | null;
  providerUpdatedAt: string | null;
  /** Sales credited so far (plan-priced or prorated): the next plan-priced sale pays cycle salesCredited + 1. */
  salesCredited: number;
  /** Credits ACTIVATED advanced that no sale has settled yet (activationAdvance, creditForSale). */
  advanceUnsettled: number;
}

/** PayPal cannot revive these; a late event must not make a cancelled subscription look active. */
const TERMINAL = new Set(['CANCELLED', 'EXPIRED']);

const time = (iso: string | null): number => (iso ? Date.parse(iso) : Number.NEGATIVE_INFINITY);
const later = (a: string | null, b: string | null): string | null => (time(b) > time(a) ? b : a);

/**
 * Folds one event into the stored state so that any delivery order ends in the same state:
 * status, plan and billing date come from the newest resource version (update_time), payment and
 * failure times are maxima, and cancellation is sticky.
 */
export function applySubscriptionChange(
  state: SubscriptionState,
  change: PayPalSubscriptionChange,
  eventType: PayPalSubscriptionEventType,
  packageIdForPlan: string | null,
): SubscriptionState {
  const next = { ...state };
  const newer = time(change.updatedAt) > time(state.providerUpdatedAt) || state.providerUpdatedAt === null;
  if (newer && !(TERMINAL.has(state.status) && !TERMINAL.has(change.status))) {
    next.status = change.status;
    next.planId = change.planId ?? state.planId;
    next.packageId = change.planId ? packageIdForPlan : state.packageId;
    next.nextBillingTime = change.nextBillingTime;
    next.providerUpdatedAt = change.updatedAt;
  }
  next.lastPaymentAt = later(state.lastPaymentAt, change.lastPaymentAt);
  if (time(change.lastFailedPaymentAt) > time(state.lastFailedPaymentAt)) {
    next.lastFailedPaymentAt = change.lastFailedPaymentAt;
    next.lastFailureReason = change.lastFailureReason;
  }
  if (eventType === 'BILLING.SUBSCRIPTION.CANCELLED' || change.status === 'CANCELLED') {
    next.cancelledAt = state.cancelledAt ?? change.statusUpdatedAt ?? change.updatedAt;
  }
  return next;
}

/** A sale is a successful payment: it counts for the "flagged" test like any later payment. */
export function applySalePayment(state: SubscriptionState, paidAt: string | null): SubscriptionState {
  return { ...state, lastPaymentAt: later(state.lastPaymentAt, paidAt) };
}

/** Flagged: PayPal suspended it, or its newest payment attempt failed. */
export function isPaymentFlagged(
  state: Pick<SubscriptionState, 'status' | 'lastPaymentAt' | 'lastFailedPaymentAt'>,
): boolean {
  if (state.status === 'SUSPENDED') return true;
  return state.lastFailedPaymentAt !== null && time(state.lastFailedPaymentAt) > time(state.lastPaymentAt);
}

/**
 * Credits an ACTIVATED event advances before its first sale arrives, so a new subscriber can start at once: what the
 * payment PayPal took at activation bought (billing_info.last_payment, priced like a sale of that amount by the
 * caller: the plan's credits for the plan's price, a paid trial's or setup fee's share for less, nothing for a $0 or
 * free trial, which reports no payment), when the resource is ACTIVE, and only while no sale of the subscription has
 * been credited and nothing is advanced yet. The advance is no payment: the next sales settle it (creditForSale), the
 * sale of that same payment exactly. UPDATED never grants: PayPal bills a new plan from the next cycle on, and that
 * sale pays for it.
 */
export function activationAdvance(
  state: Pick<SubscriptionState, 'salesCredited' | 'advanceUnsettled'>,
  eventType: PayPalSubscriptionEventType,
  change: Pick<PayPalSubscriptionChange, 'status' | 'lastPaymentAt'>,
  paymentBought: number | null,
): number {
  if (eventType !== 'BILLING.SUBSCRIPTION.ACTIVATED' || change.status !== 'ACTIVE') return 0;
  if (paymentBought === null || paymentBought <= 0 || change.lastPaymentAt === null) return 0;
  if (state.salesCredited > 0 || state.advanceUnsettled > 0) return 0;
  return paymentBought;
}

/** What one newly credited sale of a subscription does. */
export interface SaleCredit {
  /** The billing cycle this sale paid (1 = the first), in processing order; null for a charge that is no plan price. */
  cycle: number | null;
  /** Credits to grant now: what the sale paid for beyond the advance still unsettled. */
  grant: number;
  /** The subscription's salesCredited and advanceUnsettled afterwards. */
  salesCredited: number;
  advanceUnsettled: number;
}

/**
 * One payment, its credits once, in any delivery order. PayPal announces the first cycle twice: ACTIVATED (which may
 * advance the plan's credits, activationAdvance) and the first PAYMENT.SALE.COMPLETED. Whatever sales come after an
 * advance settle it: each grants only what it paid for beyond the advance still unsettled. So the credits granted
 * for a subscription are always the sum of what its sales paid for, once the advance is settled.
 */
export function creditForSale(
  state: Pick<SubscriptionState, 'salesCredited' | 'advanceUnsettled'>,
  paidFor: number,
  planPriced: boolean,
): SaleCredit {
  const settled = Math.min(state.advanceUnsettled, paidFor);
  return {
    cycle: planPriced ? state.salesCredited + 1 : null,
    grant: paidFor - settled,
    salesCredited: state.salesCredited + 1,
    advanceUnsettled: state.advanceUnsettled - settled,
  };
}
