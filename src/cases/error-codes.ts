import { defineErrorCodes } from '../platform/errors/error-table';

/**
 * The cases feature's codes: a member's refused action and a forged case workflow. Pure data: src/cases/workflows.ts
 * refuses updates with them, and case-workflow-client.ts reads them back.
 */
export const CASES_ERRORS = defineErrorCodes({
  /** A member whose role may not take the action, or the proposer approving their own proposal (four eyes). */
  CASE_ACTION_FORBIDDEN: { status: 403, retryable: false },
  /** The case's state forbids the action (approving a case with no proposal, assigning a closed case). */
  CASE_STATE_CONFLICT: { status: 409, retryable: false },
  /** An action whose fields are not what the action takes (a workflow update sent by hand). */
  CASE_ACTION_INVALID: { status: 400, retryable: false },
  /** A case workflow whose id or input names no stored case of that account: it records nothing. */
  CASE_WORKFLOW_NOT_AUTHENTIC: { status: 409, retryable: false },
});
