import { type Client, WithStartWorkflowOperation, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure, type Workflow } from '@temporalio/common';
import { AppError, findErrorCode } from '../platform/errors';
import { CASES_ERRORS } from './error-codes';
import { CaseSeverityAttr, CaseStateAttr, UserIdAttr } from '../platform/temporal/search-attributes';
import { caseWorkflowId } from './workflow-ids';
import {
  CASE_SIGNALS,
  type CaseActionRequest,
  type CaseActionResult,
  type CaseAlert,
  type CaseWorkflowInput,
} from './workflow-types';

export interface CaseWorkflowClient {
  /** Hands an alert to the case's workflow, starting its run when none is running (a new or a closed case). */
  alert(input: CaseWorkflowInput, alert: CaseAlert): Promise<void>;
  /**
   * Sends a member's action as the update of that name and waits for it to be recorded (update-with-start: a closed
   * case's run has ended, and a reopen starts the next one). `updateId` (the request's Idempotency-Key) makes a
   * retried request the same update. A refusal comes back as the AppError of its code (403, 409, 400).
   */
  act(input: CaseWorkflowInput, request: CaseActionRequest, updateId?: string): Promise<CaseActionResult>;
}

export function createCaseWorkflowClient(deps: { temporal: Client; taskQueue: string }): CaseWorkflowClient {
  const startOptions = (input: CaseWorkflowInput) => ({
    workflowId: caseWorkflowId(input.caseId),
    taskQueue: deps.taskQueue,
    args: [input] as [CaseWorkflowInput],
    typedSearchAttributes: [
      { key: UserIdAttr, value: input.accountId },
      { key: CaseStateAttr, value: 'open' },
      { key: CaseSeverityAttr, value: 'low' },
    ],
    staticSummary: `case ${input.caseId}`,
  });
  return {
    async alert(input, alert) {
      await deps.temporal.workflow.signalWithStart('caseWorkflow', {
        ...startOptions(input),
        signal: CASE_SIGNALS.alert,
        signalArgs: [alert],
      });
    },
    async act(input, request, updateId) {
      const start = new WithStartWorkflowOperation('caseWorkflow', {
        ...startOptions(input),
        workflowIdConflictPolicy: 'USE_EXISTING',
      });
      try {
        return await deps.temporal.workflow.executeUpdateWithStart<Workflow, CaseActionResult, [CaseActionRequest]>(
          request.action.action,
          { args: [request], startWorkflowOperation: start, ...(updateId ? { updateId } : {}) },
        );
      } catch (err) {
        throw refusalOf(err) ?? err;
      }
    },
  };
}

/** The workflow's refusal (an ApplicationFailure of a case code, from a validator or a handler) as our AppError. */
function refusalOf(err: unknown): AppError | null {
  const cause = err instanceof WorkflowUpdateFailedError ? err.cause : err;
  if (!(cause instanceof ApplicationFailure) || !cause.type) return null;
  // Only the cases table is read: a refusal is one of the codes the case workflow refuses with.
  const refused = findErrorCode(cause.type, CASES_ERRORS);
  return refused ? new AppError(refused, cause.message.replace(/^\S+: /, '')) : null;
}
