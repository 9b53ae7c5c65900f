import { AppError } from '../../platform/errors';
import { BILLING_ERRORS } from '../error-codes';

/** The ITN body is not well-formed application/x-www-form-urlencoded data; PayFast never sends such a body. */
export class ItnFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ItnFormatError';
  }
}

/**
 * PayFast could not give an answer (network error, timeout, non-200, unexpected body). This is not a verdict on the
 * ITN: the caller should let PayFast retry (503) or retry the activity, never treat it as INVALID.
 */
export class PayFastUnavailableError extends AppError {
  constructor(message: string, options?: { cause?: unknown; retryable?: boolean }) {
    super(BILLING_ERRORS.PAYFAST_UNAVAILABLE, message, options);
  }
}

/**
 * A payment workflow's ITN that does not verify with this worker's passphrase and merchant id, or is not the ITN its
 * input claims: whoever started the workflow is not PayFast. Nothing is claimed or recorded, so the genuine ITN of
 * that payment can still be processed.
 */
export class ItnNotAuthenticError extends AppError {
  constructor(message: string) {
    super(BILLING_ERRORS.ITN_NOT_AUTHENTIC, message);
  }
}

/**
 * A refund workflow for a refund the api did not record (payfast_refund_records), or for another payment or amount
 * than it recorded. Nothing is claimed, so the admin can still record that refund id.
 */
export class RefundNotRecordedError extends AppError {
  constructor(message: string) {
    super(BILLING_ERRORS.REFUND_NOT_RECORDED, message);
  }
}
