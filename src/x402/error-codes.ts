import { defineErrorCodes } from '../platform/errors/error-table';

/** The x402 feature's codes: pay-per-use reports and their payments. Pure data. */
export const X402_ERRORS = defineErrorCodes({
  /** Reports are not set up on this deployment (X402_PAY_TO and a facilitator). */
  PAYMENTS_NOT_CONFIGURED: { status: 503, retryable: false },
  /** No payment yet: the body repeats the PAYMENT-REQUIRED challenge. */
  PAYMENT_REQUIRED: { status: 402, retryable: false },
  /** A payment that does not decode or verify; nothing was charged. */
  PAYMENT_REJECTED: { status: 402, retryable: false },
  /** A verified payment the facilitator would not settle; the report is withheld, nothing was charged. */
  SETTLEMENT_FAILED: { status: 402, retryable: false },
  /** A payment authorization another request already used. */
  DUPLICATE_PAYMENT: { status: 402, retryable: false },
  /** The facilitator did not answer (payment verification or settlement); nothing was charged. */
  PAYMENT_UNAVAILABLE: { status: 503, retryable: true },
  /** The payer already has a report whose payment is not settled yet: retry after Retry-After seconds. */
  PAYER_BUSY: { status: 429, retryable: true },
  /** The report could not be produced; nothing was charged. */
  REPORT_FAILED: { status: 503, retryable: true },
  /** The report took longer than X402_REPORT_TIMEOUT_MS; nothing was charged. */
  REPORT_TIMEOUT: { status: 504, retryable: true },
  /** No entity matches a KYE report's name; nothing was charged. */
  ENTITY_NOT_FOUND: { status: 404, retryable: false },
});
