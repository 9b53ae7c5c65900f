import { defineErrorCodes } from '../platform/errors/error-table';

/** The custom-labels feature's codes. Pure data. */
export const CUSTOM_LABELS_ERRORS = defineErrorCodes({
  /** The account already keeps MAX_CUSTOM_LABELS_PER_ACCOUNT custom labels: delete one first. */
  CUSTOM_LABEL_LIMIT_REACHED: { status: 409, retryable: false },
});
