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
  planCreditsGranted: number;
  providerUpdatedAt: string | null;
  /** Sales credited so far: the next sale pays cycle salesCredited + 1. */
  salesCredited: number;
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
 * Credits an ACTIVATED or UPDATED event grants: the plan's credits beyond the largest plan already
 * granted for (an upgrade tops up the difference; a downgrade or a stale event grants nothing).
 * Only an ACTIVE resource grants. The same total results in any delivery order.
 */
export function planTopUp(
  eventType: PayPalSubscriptionEventType,
  change: PayPalSubscriptionChange,
  planCredits: number | null,
  alreadyGranted: number,
): number {
  if (eventType !== 'BILLING.SUBSCRIPTION.ACTIVATED' && eventType !== 'BILLING.SUBSCRIPTION.UPDATED') return 0;
  if (change.status !== 'ACTIVE' || planCredits === null) return 0;
  return Math.max(0, planCredits - alreadyGranted);
}

/** What one newly credited sale of a subscription does. */
export interface SaleCredit {
  /** The billing cycle this sale paid (1 = the first), in the order the subscription's sales are processed. */
  cycle: number;
  /** Credits to grant now: a cycle's credits, minus what ACTIVATED/UPDATED already granted for cycle 1. */
  grant: number;
  /** The subscription's planCreditsGranted afterwards. */
  planCreditsGranted: number;
}

/**
 * One paid cycle, one cycle of credits, in any delivery order. PayPal announces the first cycle twice:
 * ACTIVATED (which grants the plan's credits at once, so a new subscriber can start) and the first
 * PAYMENT.SALE.COMPLETED. Both stand for cycle 1: the sale grants only what activation has not already
 * granted (nothing, usually), and records cycle 1 as granted so a later ACTIVATED grants nothing either.
 * Every further sale is a new cycle and grants the package's credits.
 */
export function creditForSale(
  state: Pick<SubscriptionState, 'salesCredited' | 'planCreditsGranted'>,
  packageCredits: number,
): SaleCredit {
  const cycle = state.salesCredited + 1;
  if (cycle > 1) return { cycle, grant: packageCredits, planCreditsGranted: state.planCreditsGranted };
  return {
    cycle,
    grant: Math.max(0, packageCredits - state.planCreditsGranted),
    planCreditsGranted: Math.max(state.planCreditsGranted, packageCredits),
  };
}
