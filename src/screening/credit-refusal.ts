import { flatError, type HttpError } from '../platform/http/errors';
import { BILLING_ERRORS } from '../billing';

/**
 * The 402 of paid work the account cannot pay for (a submit, a batch none of whose items could be held, a rescore):
 * CREDITS_IN_DEBT while it owes credits taken back after they were spent, SUBSCRIPTION_PAYMENT_FAILED when a failed
 * subscription payment is why no credits came, INSUFFICIENT_CREDITS otherwise. `paymentFailed` may be left out by a
 * caller that has no subscription to ask about.
 */
export function creditRefusal(refusal: {
  needed: number;
  available: number;
  debt: number;
  paymentFailed?: boolean;
  /** What the credits were for, in the message (default: "an analysis"). */
  what?: string;
}): HttpError {
  if (refusal.debt > 0) {
    return flatError(
      BILLING_ERRORS.CREDITS_IN_DEBT,
      `Your account owes ${refusal.debt} credits taken back by a refund or reversal ` +
        `after they were spent; new analyses start again once a payment covers it`,
      {
        required: refusal.needed,
        available: refusal.available,
        debt: refusal.debt,
      },
    );
  }
  if (refusal.paymentFailed) {
    return flatError(
      BILLING_ERRORS.SUBSCRIPTION_PAYMENT_FAILED,
      `Insufficient credits (${refusal.available} available), and the last subscription ` +
        `payment failed: update the payment method with PayPal to renew your credits`,
      {
        required: refusal.needed,
        available: refusal.available,
      },
    );
  }
  return flatError(
    BILLING_ERRORS.INSUFFICIENT_CREDITS,
    `Insufficient credits: ${refusal.what ?? 'an analysis'} needs at least ${refusal.needed} credit, ` +
      `${refusal.available} available`,
    {
      required: refusal.needed,
      available: refusal.available,
    },
  );
}
