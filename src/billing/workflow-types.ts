/** Inputs of the billing workflows. Types only: the workflow bundle stays pure. */
import type { PayPalEvent } from './paypal/paypal-event';
import type { PayFastItn } from './payfast/apply-payfast-itn';

export type { EventResult } from '../platform/webhooks/event-result';
export type { PayFastItn, PayPalEvent };

export interface PayPalEventInput {
  event: PayPalEvent;
  /** The verified body, kept in the inbox for audit. */
  payload: unknown;
  /** First retry interval for a sale that arrived before its subscription. */
  unknownSubscriptionRetryMs: number;
}

export interface PayFastPaymentInput {
  /** What the api read; the worker re-reads it from validationParamString and refuses a difference. */
  itn: PayFastItn;
  /**
   * Read only when replaying workflows started before the worker decided on server validation itself
   * (PAYFAST_SERVER_VALIDATION of the worker); new starts leave it out, and a value sent anyway is ignored.
   */
  serverValidation?: boolean;
  /** The received parameters without the signature, exactly as signed and as PayFast wants them posted back. */
  validationParamString: string;
}

/** An ITN the worker verified from its signed parameters, and why it must not be applied (null: apply it). */
export interface CheckedPayFastItn {
  itn: PayFastItn;
  refusal: string | null;
}

/** A PayFast refund recorded by an admin (PayFast sends no ITN for refunds). */
export interface PayFastRefundInput {
  pfPaymentId: string;
  /** PayFast's refund id (or the admin's own unique reference): the de-duplication key. */
  refundId: string;
  /** Money returned in cents (ZAR); null = everything not refunded yet. */
  amountCents: number | null;
  reason: string | null;
  /** The admin who recorded it. */
  recordedBy: string;
}
