import { defineErrorCodes } from '../platform/errors/error-table';

/**
 * The policies feature's codes. Pure data. (POLICY_NOT_FOUND is screening's: its resolver, which every screening
 * uses, raises it, and screening cannot import policies.)
 */
export const POLICIES_ERRORS = defineErrorCodes({
  /** The account already keeps MAX_POLICIES_PER_ACCOUNT live policies: delete one first. */
  POLICY_LIMIT_REACHED: { status: 409, retryable: false },
});
