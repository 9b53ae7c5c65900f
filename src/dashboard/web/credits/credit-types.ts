/** GET /api/v1/credits/balance's data: `reserved` is held for jobs still running, `available` what can be spent. */
export interface CreditBalance {
  balance: number;
  reserved: number;
  available: number;
}

/** Realtime `credits_granted`: one ledger grant (admin, PayPal, PayFast…), after it is committed. */
export interface CreditsGrantedEvent {
  transactionId: string;
  amount: number;
  balance: number;
  source: string;
  eventId: string | null;
  grantedAt: string;
}

/** Realtime `credit_balance_updated`: every grant (delta > 0) and charge (delta < 0); `balance` is the new total. */
export interface BalanceUpdatedEvent {
  balance: number;
  delta: number;
  reason: string;
}

/** One line of the live feed on the Credits page. */
export interface CreditFeedEntry {
  id: string;
  kind: 'grant' | 'charge';
  amount: number;
  source: string;
  balance: number;
  at: string;
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
