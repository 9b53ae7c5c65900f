import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { screeningWorkflowId } from './workflow-ids';
import type { ScreeningInput } from './workflow-types';
import { ApiTypeAttr, ChainAttr, JobStatusAttr, UserIdAttr } from '../platform/temporal/search-attributes';

/**
 * The execution status names of the Temporal API (RUNNING, COMPLETED, FAILED, TERMINATED, CANCELLED, TIMED_OUT …).
 */
export type ExecutionStatus = string;

export interface ScreeningWorkflowStarter {
  /**
   * Starts the job's workflow (id `screening:<request_id>`, REJECT_DUPLICATE: a job runs at most once
   * however often this is called). 'exists' when an execution with that id was ever started.
   */
  start(input: ScreeningInput, options?: { memo?: Record<string, unknown> }): Promise<'started' | 'exists'>;
  /** The status of the job's execution, or null when none was ever started. */
  status(requestId: string): Promise<ExecutionStatus | null>;
}

/** The one place a screening workflow is started: by the API on submit and by the queued-job sweeper. */
export function createScreeningWorkflowStarter(deps: {
  temporal: Client;
  taskQueue: string;
}): ScreeningWorkflowStarter {
  return {
    async start(input, options = {}) {
      try {
        await deps.temporal.workflow.start('screeningWorkflow', {
          workflowId: screeningWorkflowId(input.requestId),
          taskQueue: deps.taskQueue,
          args: [input],
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          typedSearchAttributes: [
            { key: UserIdAttr, value: input.userId },
            { key: ApiTypeAttr, value: input.apiType },
            { key: ChainAttr, value: input.chain },
            { key: JobStatusAttr, value: 'queued' },
          ],
          memo: options.memo,
          staticSummary: `${input.apiType} ${input.chain} ${input.target}`,
        });
        return 'started';
      } catch (err) {
        if (err instanceof WorkflowExecutionAlreadyStartedError) return 'exists';
        throw err;
      }
    },

    async status(requestId) {
      try {
        const description = await deps.temporal.workflow.getHandle(screeningWorkflowId(requestId)).describe();
        return description.status.name;
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) return null;
        throw err;
      }
    },
  };
}
