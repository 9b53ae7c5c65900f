import { BILLING_ERRORS } from '../billing';
import { type ErrorCodeEntry, findErrorCode, PLATFORM_ERRORS } from '../platform/errors';
import { SCREENING_ERRORS } from './error-codes';

/**
 * The declared code a failed job's stored code is answered with (the deprecated synchronous analyze). A job fails
 * with a code of screening's (its analysis, its hold, the sweeper), of billing's (its charge) or the platform's
 * ANALYSIS_FAILED; anything else (no code, or one none of those tables declares) answers ANALYSIS_FAILED.
 */
export function failedJobCode(code: string | undefined): ErrorCodeEntry {
  const declared =
    code === undefined ? undefined : findErrorCode(code, SCREENING_ERRORS, BILLING_ERRORS, PLATFORM_ERRORS);
  return declared ?? PLATFORM_ERRORS.ANALYSIS_FAILED;
}
