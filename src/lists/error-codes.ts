import { defineErrorCodes } from '../platform/errors/error-table';

/**
 * The lists feature's codes: sanctions list refreshes and freeze syncs. Pure data: src/lists/workflows.ts raises one.
 */
export const LISTS_ERRORS = defineErrorCodes({
  /** A sanctions list issue older than the active version, loaded without force. */
  LIST_ISSUE_OUTDATED: { status: 409, retryable: false },
  /** A sanctions list source that is not what it claims to be (not SDN Advanced XML, no issue date, truncated). */
  LIST_SOURCE_INVALID: { status: 422, retryable: false },
  /**
   * A list refresh workflow asked to read a source the worker is not configured with (OFAC_REFRESH_SOURCE, a file
   * in OFAC_ISSUE_DIR), or to force a load: only `npm run lists:update -- --force` forces one.
   */
  LIST_SOURCE_NOT_CONFIGURED: { status: 403, retryable: false },
  /** A freeze sync workflow naming a chain other than an EVM network or tron, or one twice. */
  FREEZE_SOURCE_UNKNOWN: { status: 422, retryable: false },
});
