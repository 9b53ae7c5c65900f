import { activityInfo, heartbeat } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { Pool } from 'pg';
import {
  type BatchItemStart,
  type BatchSweepSummary,
  type BatchWorkflowInput,
  type BatchWorkflowSettings,
  type BatchWorkflowStarter,
  checkBatchRun,
  createBatchStore,
  type RecoverBatchItemDeps,
  recoverBatchItem,
  sweepBatches,
} from '.';
import type { BatchCompletion, BatchItemState } from './workflow-types';
import type { CreditStore } from '../billing';
import type { Logger } from '../platform/logging/logger';
import type { JobStore, ScreeningWorkflowStarter } from '../screening';
import { toApplicationFailure } from '../platform/errors/temporal-failures';

export interface BatchActivityDeps {
  pool: Pool;
  jobs: JobStore;
  credits: CreditStore;
  /** Needs a Temporal client: settling an item reads its workflow, the sweep starts batch workflows. */
  screeningStarter?: ScreeningWorkflowStarter;
  batchStarter?: BatchWorkflowStarter;
  /** This worker's QUEUED_JOB_* config: when a running batch is looked at, and the item jobs' heartbeat timeout. */
  queuedJobSweep: { restartAfterMs: number; heartbeatTimeoutMs: number };
  /** This worker's BATCH_CONCURRENCY and BATCH_CONTINUE_AS_NEW_AFTER: a batch run's input is clamped to them. */
  batchWorkflow: BatchWorkflowSettings;
  log?: Logger;
  metrics?: RecoverBatchItemDeps['metrics'];
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined)
    throw ApplicationFailure.nonRetryable(`this worker has no Temporal client for ${what}`, 'SweeperNotConfigured');
  return value;
}

/** Batch activities: thin adapters over src/batches. */
export function createBatchActivities(deps: BatchActivityDeps) {
  const batches = createBatchStore(deps.pool);
  return {
    /**
     * A batch run's first step: the batch exists, is the input's user's, and this workflow is `batch:<batch id>`
     * (INPUT_NOT_AUTHENTIC otherwise, not retried); answers the run's concurrency and continue-as-new figures clamped
     * to this worker's config (see checkBatchRun).
     */
    async checkBatchRun(
      input: BatchWorkflowInput,
    ): Promise<Pick<BatchWorkflowInput, 'concurrency' | 'continueAsNewAfter'>> {
      try {
        return await checkBatchRun({ batches, settings: deps.batchWorkflow }, input, {
          workflowId: activityInfo().workflowExecution?.workflowId ?? '',
        });
      } catch (err) {
        throw toApplicationFailure(err);
      }
    },

    /** The next accepted items still queued after `afterIndex`, in request order, with their job inputs. */
    async loadBatchItems(input: { batchId: string; afterIndex: number; limit: number }): Promise<BatchItemStart[]> {
      return batches.pendingItems(input.batchId, input.afterIndex, input.limit, deps.queuedJobSweep.heartbeatTimeoutMs);
    },

    /**
     * Recovers an item the workflow could not follow as its child (src/batches/recover-batch-item.ts). Registered
     * under its first name, settleBatchItem, which recorded workflow histories schedule.
     */
    async settleBatchItem(input: { requestId: string; userId: string }): Promise<BatchItemState> {
      return recoverBatchItem(
        {
          jobs: deps.jobs,
          credits: deps.credits,
          starter: required(deps.screeningStarter, 'recovering an item'),
          log: deps.log,
          metrics: deps.metrics,
        },
        input,
      );
    },

    /** One coalesced batch_progress to the owner's sockets (the trigger reads the counts as they are now). */
    async publishBatchProgress(input: { batchId: string }): Promise<void> {
      await batches.markProgress(input.batchId);
    },

    /** Completes the batch once no accepted item is queued (the final batch_progress); completing twice is a no-op. */
    async completeBatch(input: { batchId: string }): Promise<BatchCompletion> {
      return batches.complete(input.batchId);
    },

    /** Starts the workflow of each batch whose workflow is not running (see sweepBatches). */
    async sweepStalledBatches(_ignored?: unknown): Promise<BatchSweepSummary> {
      return sweepBatches(
        {
          batches,
          starter: required(deps.batchStarter, 'the batch sweep'),
          log: deps.log,
          beat: (id) => heartbeat(id),
        },
        { restartAfterMs: deps.queuedJobSweep.restartAfterMs, limit: 100 },
      );
    },
  };
}

export type BatchActivities = ReturnType<typeof createBatchActivities>;
