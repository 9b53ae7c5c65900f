import { defineErrorCodes } from '../platform/errors/error-table';

/** The billing feature's codes: credits, PayPal and PayFast events, refunds and checkout. Pure data. */
export const BILLING_ERRORS = defineErrorCodes({
  /** The balance cannot hold what the request may cost. */
  INSUFFICIENT_CREDITS: { status: 402, retryable: false },
  /** The account owes credits taken back by a refund or reversal after they were spent. */
  CREDITS_IN_DEBT: { status: 402, retryable: false },
  /** Not enough credits, and the last subscription payment failed. */
  SUBSCRIPTION_PAYMENT_FAILED: { status: 402, retryable: false },
  /**
   * A charge naming a hold that does not exist for that user, or larger than the hold (credits.sql consume_credits).
   */
  CHARGE_NOT_HELD: { status: 409, retryable: false },
  /** PayFast checkout without its merchant settings on this deployment. */
  BILLING_NOT_CONFIGURED: { status: 503, retryable: false },
  /** A PayPal sale before its subscription is stored: retried with backoff, never dropped. */
  SUBSCRIPTION_NOT_KNOWN_YET: { status: 409, retryable: true },
  /** A refund of a payment not credited (yet): retried like a sale before its subscription. */
  PAYMENT_NOT_KNOWN_YET: { status: 409, retryable: true },
  /** The PayPal webhook route cannot check a delivery's signature now: PayPal retries. */
  VERIFICATION_UNAVAILABLE: { status: 503, retryable: true },
  /** A PayPal subscription event without the custom_id that names its user. */
  MISSING_CUSTOM_ID: { status: 400, retryable: false },
  /**
   * A PayPal event workflow whose input the worker cannot prove PayPal sent: its signed delivery does not verify, the
   * event differs from the signed body, or (a workflow started without the delivery) PayPal does not know the event.
   */
  PAYPAL_EVENT_NOT_AUTHENTIC: { status: 401, retryable: false },
  /** PayFast's validate endpoint could not be reached. */
  PAYFAST_UNAVAILABLE: { status: 503, retryable: true },
  /** An ITN that is not well-formed or lacks a field the payment needs. */
  INVALID_ITN: { status: 400, retryable: false },
  /** An ITN from an address that is not PayFast's. */
  FORBIDDEN_SOURCE: { status: 403, retryable: false },
  /** An ITN for another merchant. */
  MERCHANT_MISMATCH: { status: 400, retryable: false },
  /** A PayFast payment workflow whose ITN does not verify (signature, merchant) or is not the one its input claims. */
  ITN_NOT_AUTHENTIC: { status: 401, retryable: false },
  /** A PayFast refund workflow for a refund the api never recorded, or for another payment or amount than recorded. */
  REFUND_NOT_RECORDED: { status: 409, retryable: false },
  /** A PayFast refund id already recorded for another payment or amount. */
  REFUND_ID_CONFLICT: { status: 409, retryable: false },
});
