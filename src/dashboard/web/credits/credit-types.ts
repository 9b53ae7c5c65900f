/**
 * GET /api/v1/credits/balance's data: `reserved` is held for jobs still running, `available` what can be
 * spent, `debt` credits taken back by a refund after they were spent (above 0, new jobs are refused).
 */
export interface CreditBalance {
  balance: number;
  reserved: number;
  available: number;
  debt?: number;
}

/** Realtime `credits_granted`: one ledger grant (admin, PayPal, PayFast…), after it is committed. */
export interface CreditsGrantedEvent {
  transactionId: string;
  amount: number;
  balance: number;
  source: string;
  eventId: string | null;
  grantedAt: string;
  /** Present when part of the grant paid off debt instead of raising the balance. */
  debtRepaid?: number;
}

/**
 * Realtime `credit_balance_updated`: every grant (delta > 0), charge (delta < 0) and refund take-back
 * (with `debtAdded`); `balance` is the new total.
 */
export interface BalanceUpdatedEvent {
  balance: number;
  delta: number;
  reason: string;
  debtAdded?: number;
}

/** One line of the live feed on the Credits page. */
export interface CreditFeedEntry {
  id: string;
  kind: 'grant' | 'charge' | 'revoke';
  amount: number;
  source: string;
  balance: number;
  at: string;
  /** Grants: the part that paid off debt. Take-backs: the part that became debt. */
  debt?: number;
}

/** GET /api/v1/credits/packages item. */
export interface CreditPackage {
  id: string;
  name: string;
  credits: number;
  billing: 'one_time' | 'monthly' | 'annual' | string;
  prices: { provider: 'paypal' | 'payfast' | string; currency: string; amount: string; paypalPlanId?: string }[];
}

/** GET /api/v1/billing/subscriptions item. */
export interface Subscription {
  provider: 'paypal';
  subscriptionId: string;
  status: string;
  planId: string | null;
  packageId: string | null;
  nextBillingTime: string | null;
  cancelledAt: string | null;
  paymentFailed: boolean;
  lastFailureReason: string | null;
}

/** POST /api/v1/billing/payfast/checkout's data: the signed form to post to PayFast. */
export interface PayFastCheckout {
  mPaymentId: string;
  action: string;
  method: string;
  fields: Record<string, string>;
}

export const creditsWord = (n: number): string => `${n} credit${Math.abs(n) === 1 ? '' : 's'}`;
