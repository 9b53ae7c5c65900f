import { AppError } from '../../platform/errors';

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
    super('PAYFAST_UNAVAILABLE', message, options);
  }
}
