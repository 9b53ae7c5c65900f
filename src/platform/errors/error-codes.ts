import { defineErrorCodes } from './error-table';

/**
 * The platform's own codes: the generic answers any feature may give (validation, not found, rate limits, an
 * unavailable dependency, a failure nobody named). A code that only one feature raises lives in that feature's
 * error-codes.ts; the composition root lists them all (src/app/declared-error-codes.ts).
 * Pure data: workflows import it.
 */
export const PLATFORM_ERRORS = defineErrorCodes({
  /** A parameter or body field missing, malformed or out of range (the structured shape, naming it). */
  INVALID_PARAMETER: { status: 400, retryable: false },
  /** A body the parser cannot read at all; answered with the parser's own 4xx (415 for an unknown encoding). */
  BAD_REQUEST: { status: 400, retryable: false },
  /** No such resource among the caller's own, or no such route. */
  NOT_FOUND: { status: 404, retryable: false },
  PAYLOAD_TOO_LARGE: { status: 413, retryable: false },
  /** An Idempotency-Key (or idempotencyKey) already used by this account for a request with another body. */
  IDEMPOTENCY_KEY_REUSED: { status: 409, retryable: false },
  /** Over a request limit: retry after Retry-After seconds. */
  RATE_LIMITED: { status: 429, retryable: true },
  /** A dependency (Postgres, Temporal, a workflow) did not answer now: nothing was done, retry. */
  SERVICE_UNAVAILABLE: { status: 503, retryable: true },
  /** A bug: logged with its cause, answered blandly. */
  INTERNAL: { status: 500, retryable: false },
  /** Anything the vocabulary does not name: the job failed, and the log holds the cause. */
  ANALYSIS_FAILED: { status: 502, retryable: false },
  /** A webhook delivery whose signature is missing, forged or too old. */
  INVALID_SIGNATURE: { status: 401, retryable: false },
  /** A signed webhook event that cannot be processed (not JSON, unsafe input, not the provider's event shape). */
  INVALID_EVENT: { status: 400, retryable: false },
  /** A provider's webhook whose secret this deployment does not have. */
  WEBHOOK_NOT_CONFIGURED: { status: 503, retryable: false },
  /** The worker cannot check a provider's delivery now (certificate and postback unreachable, secret not set). */
  WEBHOOK_VERIFICATION_UNAVAILABLE: { status: 503, retryable: true },
});
