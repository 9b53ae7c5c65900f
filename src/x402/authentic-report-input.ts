import { InputNotAuthenticError, requireRequestId, type ScreeningInput } from '../screening';
import { x402ReportWorkflowId } from './workflow-ids';
import type { X402PaymentStore } from './x402-payments-store';

/**
 * Checks an x402ReportWorkflow's input before any work: its request id holds a live ('processing') payment claim, which
 * the api writes, request id included, only after the facilitator verified the payment; and the workflow's own id is
 * `x402:<the claim's report>:<request id>`, the one the api started. A workflow started by hand with a made-up input
 * (or a request id whose claim's payment was settled or given back) analyses nothing: INPUT_NOT_AUTHENTIC.
 */
export async function checkReportInput(
  payments: Pick<X402PaymentStore, 'processingReport'>,
  input: Pick<ScreeningInput, 'requestId'>,
  workflow: { workflowId: string },
): Promise<void> {
  const requestId = requireRequestId(input.requestId);
  const report = await payments.processingReport(requestId);
  if (!report) throw new InputNotAuthenticError('no live x402 payment claim for this request id');
  if (workflow.workflowId !== x402ReportWorkflowId(report, requestId))
    throw new InputNotAuthenticError(
      `the report paid under this request id runs as ${x402ReportWorkflowId(report, requestId)}`,
    );
}
