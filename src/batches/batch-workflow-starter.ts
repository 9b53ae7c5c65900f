import { type Client, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import type { BatchesConfig } from './config';
import { UserIdAttr } from '../platform/temporal/search-attributes';
import { batchWorkflowId } from './workflow-ids';
import type { BatchWorkflowInput } from './workflow-types';

export interface BatchWorkflowSettings {
  /** BATCH_CONCURRENCY */
  concurrency: number;
  /** BATCH_CONTINUE_AS_NEW_AFTER */
  continueAsNewAfter: number;
}

export function batchWorkflowSettings(
  config: Pick<BatchesConfig, 'BATCH_CONCURRENCY' | 'BATCH_CONTINUE_AS_NEW_AFTER'>,
): BatchWorkflowSettings {
  return { concurrency: config.BATCH_CONCURRENCY, continueAsNewAfter: config.BATCH_CONTINUE_AS_NEW_AFTER };
}

export interface BatchWorkflowStarter {
  /**
   * Makes sure the batch's workflow `batch:<batch id>` runs: starts it, or finds the running one (USE_EXISTING),
   * so every caller (the submit, its retries, the sweep) may call it any number of times. A run that failed or was
   * terminated is replaced by a new one, which takes the items still queued; a completed one is left as it is
   * ('completed').
   */
  ensureStarted(batch: { id: string; userId: string }): Promise<'running' | 'completed'>;
  /** The status of the batch's latest run, or null when none was ever started. Throws when Temporal cannot say. */
  status(batchId: string): Promise<string | null>;
}

/** The one place a batch workflow is started: by the API at submit and on every replay, and by the sweep. */
export function createBatchWorkflowStarter(deps: {
  temporal: Client;
  taskQueue: string;
  settings: BatchWorkflowSettings;
}): BatchWorkflowStarter {
  return {
    async ensureStarted(batch) {
      const input: BatchWorkflowInput = {
        batchId: batch.id,
        userId: batch.userId,
        concurrency: deps.settings.concurrency,
        continueAsNewAfter: deps.settings.continueAsNewAfter,
      };
      try {
        await deps.temporal.workflow.start('batchScreeningWorkflow', {
          workflowId: batchWorkflowId(batch.id),
          taskQueue: deps.taskQueue,
          args: [input],
          workflowIdConflictPolicy: 'USE_EXISTING',
          workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
          typedSearchAttributes: [{ key: UserIdAttr, value: batch.userId }],
          staticSummary: `batch ${batch.id}`,
        });
        return 'running';
      } catch (err) {
        // Only a completed run refuses a start (ALLOW_DUPLICATE_FAILED_ONLY): the batch has nothing left to run.
        if (err instanceof WorkflowExecutionAlreadyStartedError) return 'completed';
        throw err;
      }
    },

    async status(batchId) {
      try {
        return (await deps.temporal.workflow.getHandle(batchWorkflowId(batchId)).describe()).status.name;
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) return null;
        throw err;
      }
    },
  };
}
