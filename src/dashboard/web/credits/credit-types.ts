/**
 * The credits and billing API as the dashboard reads it, derived from the schemas the routes answer with
 * (src/billing/*-routes.ts). Type-only imports: esbuild erases them, so no server code is bundled.
 */
import type { z } from 'zod';
import type { checkoutResponse, subscriptionListResponse } from '../../../billing';
import type { balanceResponse, grantResponse } from '../../../billing';
import type { packageSchema } from '../../../billing';

/**
 * GET /api/v1/credits/balance's data: `reserved` is held for jobs still running, `available` what can be
 * spent, `debt` credits taken back by a refund after they were spent (above 0, new jobs are refused).
 */
export type CreditBalance = z.output<typeof balanceResponse>['data'];

/** POST /api/v1/credits/grant's data (admin). */
export type GrantResult = z.output<typeof grantResponse>['data'];

/** GET /api/v1/credits/packages item. */
export type CreditPackage = z.output<typeof packageSchema>;

/** GET /api/v1/billing/subscriptions item. */
export type Subscription = z.output<typeof subscriptionListResponse>['data'][number];

/** POST /api/v1/billing/payfast/checkout's data: the signed form to post to PayFast. */
export type PayFastCheckout = z.output<typeof checkoutResponse>['data'];

// The two socket events below are built only in SQL (the trigger function credit_transactions_to_outbox);
// no server type or schema describes them, so they are written out here.

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
