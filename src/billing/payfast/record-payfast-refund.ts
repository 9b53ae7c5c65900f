import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { PayFastRefundInput } from '../workflow-types';
import { httpRequestMemo } from '../../platform/temporal/http-request-memo';
import { payfastRefundWorkflowId } from '../workflow-ids';
import { EventTypeAttr, ProviderAttr } from '../../platform/temporal/search-attributes';
import type { EventResult } from '../../platform/webhooks/event-result';

export interface RecordedRefund {
  result: EventResult;
  /** True when this refund id had already been submitted: the answer is the first submission's outcome. */
  duplicate: boolean;
}

/**
 * Runs the refund's workflow (`payfast-refund:<refund id>`) and waits for its outcome. A second
 * submission of the same refund id finds the first workflow (running or completed) and answers with its
 * outcome instead of starting another; only a failed run may be started again.
 */
export function createPayFastRefundRecorder(deps: { temporal: Client; taskQueue: string }) {
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
    const result = (await deps.temporal.workflow.getHandle(workflowId).result()) as EventResult;
    return { result, duplicate };
  };
}

export type RecordPayFastRefund = ReturnType<typeof createPayFastRefundRecorder>;
