import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { PayFastRefundInput } from '../workflow-types';
import { httpRequestMemo } from '../../platform/temporal/http-request-memo';
import { payfastRefundWorkflowId } from '../workflow-ids';
import { EventTypeAttr, ProviderAttr } from '../../platform/temporal/search-attributes';
import type { EventResult } from '../../platform/webhooks/event-result';
import { deadline, raceSignal } from '../../platform/abort/deadline';

/** A refund's workflow outcome, or `pending` when it had not ended within the wait. */
export type RecordedRefund =
  | { state: 'done'; result: EventResult; duplicate: boolean }
  | { state: 'pending'; duplicate: boolean };

/**
 * Runs the refund's workflow (`payfast-refund:<refund id>`) and waits up to `waitMs` for its outcome (then
 * answers `pending`: the refund goes on, and submitting the same refund id again reads its outcome). A second
 * submission of the same refund id finds the first workflow (running or completed) and answers with its outcome
 * instead of starting another; only a failed run may be started again. The input must be the refund as the api
 * recorded it (payfast_refund_records): the workflow's activity applies nothing else.
 */
export function createPayFastRefundRecorder(deps: { temporal: Client; taskQueue: string; waitMs: number }) {
  return async (input: PayFastRefundInput, origin: { httpRequestId?: string } = {}): Promise<RecordedRefund> => {
    const workflowId = payfastRefundWorkflowId(input.refundId);
    let duplicate = false;
    try {
      await deps.temporal.workflow.start('payfastRefundWorkflow', {
        workflowId,
        taskQueue: deps.taskQueue,
        args: [input],
        workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
        typedSearchAttributes: [
          { key: ProviderAttr, value: 'payfast' },
          { key: EventTypeAttr, value: 'REFUND' },
        ],
        staticSummary: `payfast refund ${input.refundId} of ${input.pfPaymentId}`,
        memo: httpRequestMemo(origin.httpRequestId),
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      duplicate = true;
    }
    // The signal also ends the long poll behind result(), so a refund still running leaves nothing waiting here.
    const wait = deadline(deps.waitMs);
    try {
      const outcome = deps.temporal.withAbortSignal(wait.signal, () =>
        deps.temporal.workflow.getHandle(workflowId).result(),
      );
      const result = (await raceSignal(outcome, wait.signal)) as EventResult;
      return { state: 'done', result, duplicate };
    } catch (err) {
      if (wait.timedOut) return { state: 'pending', duplicate };
      throw err;
    } finally {
      wait.dispose();
    }
  };
}

export type RecordPayFastRefund = ReturnType<typeof createPayFastRefundRecorder>;
