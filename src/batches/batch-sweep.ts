import type { Logger } from '../platform/logging/logger';
import type { BatchStore } from './batch-store';
import type { BatchWorkflowStarter } from './batch-workflow-starter';
import type { BatchSweepSummary } from './workflow-types';

export interface BatchSweepDeps {
  batches: Pick<BatchStore, 'runningOlderThan'>;
  starter: BatchWorkflowStarter;
  log?: Logger;
  /** Called per batch looked at (an activity heartbeats). */
  beat?: (batchId: string) => void;
}

/**
 * Starts the workflow of every batch still running after `restartAfterMs` whose workflow is not running: its api
 * died between the commit and the start (and the client did not retry), or the workflow was terminated. The new
 * run takes the items still queued; items already started are followed, never started twice (their workflow ids are
 * their request ids). Run by the queued-job sweeper's schedule, after its sweep of single jobs.
 */
export async function sweepBatches(
  deps: BatchSweepDeps,
  thresholds: { restartAfterMs: number; limit: number },
): Promise<BatchSweepSummary> {
  const summary: BatchSweepSummary = { batchesExamined: 0, batchesStarted: 0 };
  for (const batch of await deps.batches.runningOlderThan(thresholds.restartAfterMs, thresholds.limit)) {
    deps.beat?.(batch.id);
    summary.batchesExamined++;
    const status = await deps.starter.status(batch.id);
    if (status === 'RUNNING') continue;
    const outcome = await deps.starter.ensureStarted(batch);
    if (outcome === 'running') {
      summary.batchesStarted++;
      deps.log?.warn('batch workflow was not running; started it', { batchId: batch.id, workflowStatus: status });
    } else {
      deps.log?.error('batch still running but its workflow completed; left for an operator', { batchId: batch.id });
    }
  }
  return summary;
}
