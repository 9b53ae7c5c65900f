/** Inputs of the billing workflows. Types only: the workflow bundle stays pure. */
import type { PayPalEvent } from './paypal/paypal-event';
import type { PayFastItn } from './payfast/apply-payfast-itn';

export type { EventResult } from '../platform/webhooks/event-result';
export type { PayFastItn, PayPalEvent };

/** A PayPal delivery exactly as received: what the worker verifies again before applying anything. */
export interface PayPalSignedDelivery {
  /** The body bytes, base64: the signature covers their CRC-32, so they travel unchanged. */
  rawBody: string;
  /** The PAYPAL-* transmission headers (id, time, sig, cert url, auth algo) under their lower-case names. */
  headers: Record<string, string>;
}

export interface PayPalEventInput {
  /**
   * What the api read from the body; the worker applies the event it reads from the verified `delivery` and refuses
   * an input whose copy differs.
   */
  event: PayPalEvent;
  /**
   * The signed delivery. Absent only in workflows started before the worker verified them: the worker then applies
   * PayPal's own copy of the event (GET /v1/notifications/webhooks-events/{id}) or refuses.
   */
  delivery?: PayPalSignedDelivery;
  /** Workflows started before `delivery` existed carried the verified body here; it is read no more. */
  payload?: unknown;
  /** First retry interval for a sale that arrived before its subscription. */
  unknownSubscriptionRetryMs: number;
}

export interface PayFastPaymentInput {
  /** What the api read; the worker re-reads it from validationParamString and refuses a difference. */
  itn: PayFastItn;
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
