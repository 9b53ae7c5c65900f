/** What other features use of billing: the credit ledger and whether a subscription's payment failed. */
export { createCreditStore, InsufficientCreditsError, type CreditStore, type LedgerResult } from './credits-store';
export { createSubscriptionStore, type SubscriptionStore } from './subscriptions-store';
/** Answer shapes the dashboard renders (types only: nothing of the server enters the browser bundle). */
export type { balanceResponse, grantResponse } from './credits-routes';
export type { checkoutResponse, subscriptionListResponse } from './billing-routes';
export type { packageSchema } from './packages-routes';
export { releaseUserHolds } from './release-user-holds';
/** Billing's codes: a refused submit answers INSUFFICIENT_CREDITS, CREDITS_IN_DEBT or SUBSCRIPTION_PAYMENT_FAILED. */
export { BILLING_ERRORS } from './error-codes';
/** The PayFast checkout a signed "Buy" form posts to (the dashboard's form-action allows its origin). */
export { payfastProcessUrl } from './payfast/server-validation';
export type { BillingConfig } from './config';
/** Credits a job's settlement consumed, counted by the worker that settles it (src/screening). */
export { creditsConsumed } from './metrics/credits-consumed';
