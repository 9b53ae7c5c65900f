import { heartbeat } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { CreditStore } from '../billing';
import type { Logger } from '../platform/logging/logger';
import type { JobStore } from './jobs-store';
import type { ScreeningWorkerMetrics } from './metrics/ports';
import type { QueuedJobSweepThresholds } from './queued-job-sweeper';
import type { ScreeningWorkflowStarter } from './screening-workflow-starter';
import { sweepQueuedJobs } from './sweep-queued-jobs';
import type { QueuedJobSweepSummary } from './workflow-types';

export interface QueuedJobActivityDeps {
  jobs: JobStore;
  credits: CreditStore;
  /** Needs a Temporal client; a worker built without one cannot sweep (the activity then fails loudly). */
  screeningStarter?: ScreeningWorkflowStarter;
  /** From this worker's config (QUEUED_JOB_*): a sweep's own input is never trusted with them. */
  queuedJobSweep: QueuedJobSweepThresholds;
  log?: Logger;
  metrics?: Pick<ScreeningWorkerMetrics, 'jobFinished'>;
}

export function createQueuedJobActivities(deps: QueuedJobActivityDeps) {
  return {
    /**
     * One sweep (src/screening/sweep-queued-jobs.ts), heartbeating per job; an argument (old schedules') is ignored.
     */
    async sweepQueuedJobs(_ignored?: unknown): Promise<QueuedJobSweepSummary> {
      const starter = deps.screeningStarter;
      if (!starter)
        throw ApplicationFailure.nonRetryable(
          'this worker has no Temporal client to start workflows with',
          'SweeperNotConfigured',
        );
      return sweepQueuedJobs({ ...deps, starter, thresholds: deps.queuedJobSweep }, (requestId) =>
        heartbeat(requestId),
      );
    },
  };
}

export type QueuedJobActivities = ReturnType<typeof createQueuedJobActivities>;
