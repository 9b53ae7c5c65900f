import { defineErrorCodes } from '../platform/errors/error-table';

/**
 * The monitors feature's codes. Pure data. (MONITOR_WORKFLOW_NOT_AUTHENTIC is screening's: its hold refuses a
 * re-screen too, and screening cannot import monitors.)
 */
export const MONITORS_ERRORS = defineErrorCodes({
  /** The account already keeps MAX_ACTIVE_MONITORS_PER_ACCOUNT monitors (active or paused): delete one first. */
  MONITOR_LIMIT_REACHED: { status: 409, retryable: false },
});
