import { AppError, PLATFORM_ERRORS } from '../../platform/errors';
import { BILLING_ERRORS } from '../error-codes';

/**
 * Why a delivery was refused, the `reason` label of chainscreen_paypal_deliveries_refused_total:
 * - headers: a PAYPAL-* transmission header missing, repeated or naming another algorithm;
 * - cert_url: the cert URL is not PayPal's certificate endpoint for the mode;
 * - cert_not_found: PayPal's certificate host said there is no such certificate (or said so within the TTL);
 * - certificate: the certificate is expired, has another CN or does not chain to a trusted CA;
 * - signature: the signature does not match the delivery;
 * - postback_failure: PayPal's verify-webhook-signature answered FAILURE;
 * - postback_rate_limited: the certificate could not be loaded and the postback budget is spent (503);
 * - unavailable: the certificate could not be loaded and the postback is absent or failed (503).
 */
export type PayPalRefusalReason =
  | 'headers'
  | 'cert_url'
  | 'cert_not_found'
  | 'certificate'
  | 'signature'
  | 'postback_failure'
  | 'postback_rate_limited'
  | 'unavailable';

const causeOf = (options: { cause?: unknown }): ErrorOptions | undefined =>
  'cause' in options ? { cause: options.cause } : undefined;

/**
 * The delivery is not provably from PayPal (bad headers, cert URL, certificate or signature): answer 401, do no work.
 */
export class WebhookSignatureError extends Error {
  readonly refusal: PayPalRefusalReason;

  constructor(reason: string, options: { cause?: unknown; refusal?: PayPalRefusalReason } = {}) {
    super(`PayPal webhook rejected: ${reason}`, causeOf(options));
    this.name = 'WebhookSignatureError';
    this.refusal = options.refusal ?? 'signature';
  }
}

/**
 * Nothing could decide whether the delivery is authentic (certificate unobtainable and the postback unavailable,
 * rate-limited or not configured). This is not a verdict: answer 503 so PayPal retries later.
 */
export class VerificationUnavailableError extends Error {
  readonly refusal: PayPalRefusalReason;

  constructor(reason: string, options: { cause?: unknown; refusal?: PayPalRefusalReason } = {}) {
    super(`PayPal webhook verification unavailable: ${reason}`, causeOf(options));
    this.name = 'VerificationUnavailableError';
    this.refusal = options.refusal ?? 'unavailable';
  }
}

/**
 * A PayPal event workflow whose input the worker cannot prove PayPal sent (forged, tampered, or unknown to PayPal):
 * nothing is applied or recorded, so the event id stays free for PayPal's genuine delivery. Not retryable.
 */
export class PayPalEventNotAuthenticError extends AppError {
  constructor(reason: string) {
    super(BILLING_ERRORS.PAYPAL_EVENT_NOT_AUTHENTIC, `PayPal event refused by the worker: ${reason}`);
  }
}

/** The worker cannot check the event now (certificate and postback unreachable, PayPal not configured): retried. */
export class PayPalCheckUnavailableError extends AppError {
  constructor(reason: string, options: { cause?: unknown } = {}) {
    super(PLATFORM_ERRORS.WEBHOOK_VERIFICATION_UNAVAILABLE, `PayPal event cannot be checked now: ${reason}`, options);
  }
}
