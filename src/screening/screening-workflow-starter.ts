import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { decodeArrayFromPayloads } from '@temporalio/common/lib/internal-non-workflow';
import { screeningWorkflowId } from './workflow-ids';
import type { JobUpdate } from './jobs-store';
import { failedMirrorWrite, type FailedJobSettlement, type SettledJob } from './settle-job';
import type { ScreeningInput } from './workflow-types';
import { ApiTypeAttr, ChainAttr, JobStatusAttr, UserIdAttr } from '../platform/temporal/search-attributes';

/**
 * The execution status names of the Temporal API (RUNNING, COMPLETED, FAILED, TERMINATED, CANCELLED, TIMED_OUT …).
 */
export type ExecutionStatus = string;

/**
 * The activities whose input holds the job's mirror write (src/screening/activities.ts), and how to read it from their
 * input: a failed job's settle, an ordinary activity (a completed job's is local: its marker holds the write).
 */
const MIRROR_WRITES: Record<string, (input: unknown) => JobUpdate> = {
  settleFailedJob: (input) => failedMirrorWrite(input as FailedJobSettlement),
};

export interface ScreeningWorkflowStarter {
  /**
   * Starts the job's workflow (id `screening:<request_id>`, REJECT_DUPLICATE: a job runs at most once
   * however often this is called). 'exists' when an execution with that id was ever started.
   */
  start(input: ScreeningInput, options?: { memo?: Record<string, unknown> }): Promise<'started' | 'exists'>;
  /** The status of the job's execution, or null when none was ever started. Throws when Temporal cannot say. */
  status(requestId: string): Promise<ExecutionStatus | null>;
  /**
   * The last mirror write the job's (latest) execution scheduled, read from its history: what the mirror must
   * hold once that execution has completed. Null when it scheduled none (or the history is gone).
   */
  lastMirrorWrite(requestId: string): Promise<JobUpdate | null>;
}

/** The marker the SDK records for a local activity: `data` (JSON: its type, attempt …) and `result` (its result). */
const LOCAL_ACTIVITY_MARKER = 'core_local_activity';
/** The settle that runs as a local activity (src/screening/workflows.ts): its result carries the mirror write. */
const LOCAL_SETTLE = 'settleCompletedJob';

function localActivityType(
  details: Record<string, { payloads?: { data?: Uint8Array | null }[] | null }> | null | undefined,
) {
  const data = details?.data?.payloads?.[0]?.data;
  if (!data) return null;
  try {
    return (JSON.parse(Buffer.from(data).toString('utf8')) as { activity_type?: string }).activity_type ?? null;
  } catch {
    return null;
  }
}

/** The one place a screening workflow is started: by the API on submit and by the queued-job sweeper. */
export function createScreeningWorkflowStarter(deps: {
  temporal: Client;
  taskQueue: string;
}): ScreeningWorkflowStarter {
  const converter = () => deps.temporal.options.loadedDataConverter;
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

    async lastMirrorWrite(requestId) {
      const history = await deps.temporal.workflow
        .getHandle(screeningWorkflowId(requestId))
        .fetchHistory()
        .catch((err: unknown) => {
          if (err instanceof WorkflowNotFoundError) return null;
          throw err;
        });
      // The last of: a scheduled activity whose input holds the write, or a local settle whose result holds it.
      for (const event of [...(history?.events ?? [])].reverse()) {
        const scheduled = event.activityTaskScheduledEventAttributes;
        const readUpdate = MIRROR_WRITES[scheduled?.activityType?.name ?? ''];
        if (scheduled && readUpdate) {
          // Decoded with the client's own converter (and codecs), as the worker decoded it.
          const [input] = await decodeArrayFromPayloads(converter(), scheduled.input?.payloads);
          return input ? readUpdate(input) : null;
        }
        const marker = event.markerRecordedEventAttributes;
        if (marker?.markerName === LOCAL_ACTIVITY_MARKER && localActivityType(marker.details) === LOCAL_SETTLE) {
          const [result] = await decodeArrayFromPayloads(converter(), marker.details?.result?.payloads);
          return (result as SettledJob | undefined)?.mirrorWrite ?? null;
        }
      }
      return null;
    },
  };
}
