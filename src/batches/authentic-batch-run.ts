import { InputNotAuthenticError } from '../screening';
import type { BatchStore } from './batch-store';
import type { BatchWorkflowSettings } from './batch-workflow-starter';
import { batchWorkflowId } from './workflow-ids';
import type { BatchWorkflowInput } from './workflow-types';

const LOWER_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A count from the input, kept between 1 and the configured figure (anything else: the configured figure). */
const bounded = (value: unknown, configured: number): number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 ? Math.min(value, configured) : configured;

/**
 * A batch run's first step (batchScreeningWorkflow's checkBatchRun): its input names a batch the
 * api recorded, for that batch's owner, and the workflow runs under that batch's own id `batch:<batch id>` (the one
 * the starter uses; Temporal refuses a second start of it while it runs). Otherwise INPUT_NOT_AUTHENTIC: nothing is
 * started. Answers the run's concurrency and continue-as-new figures clamped to this worker's BATCH_CONCURRENCY and
 * BATCH_CONTINUE_AS_NEW_AFTER, so an input cannot start more items at once than configured.
 */
export async function checkBatchRun(
  deps: { batches: Pick<BatchStore, 'find'>; settings: BatchWorkflowSettings },
  input: BatchWorkflowInput,
  workflow: { workflowId: string },
): Promise<Pick<BatchWorkflowInput, 'concurrency' | 'continueAsNewAfter'>> {
  const { batchId } = input;
  if (typeof batchId !== 'string' || !LOWER_UUID.test(batchId))
    throw new InputNotAuthenticError('the batch id is not one the api draws (a lower-case UUID)');
  if (workflow.workflowId !== batchWorkflowId(batchId))
    throw new InputNotAuthenticError(`batch ${batchId} runs as ${batchWorkflowId(batchId)} only`);
  const batch = await deps.batches.find(batchId);
  if (!batch || batch.userId !== input.userId)
    throw new InputNotAuthenticError('no batch of this user under this batch id');
  return {
    concurrency: bounded(input.concurrency, deps.settings.concurrency),
    continueAsNewAfter: bounded(input.continueAsNewAfter, deps.settings.continueAsNewAfter),
  };
}
