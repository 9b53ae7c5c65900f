import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { QueuedJobSweepInput, QueuedJobSweepSummary } from '../src/screening/workflow-types';

const { sweepQueuedJobs } = proxyActivities<Activities>({
  startToCloseTimeout: '5m',
  heartbeatTimeout: '30s',
  retry: { initialInterval: '5s', maximumInterval: '30s', maximumAttempts: 5 },
});

/**
 * One sweep of jobs left `queued` (run by the schedule `queued-job-sweeper:<task queue>`): the result in the
 * Temporal UI says how many were started, running, released or left for an operator.
 */
export async function queuedJobSweeperWorkflow(input: QueuedJobSweepInput): Promise<QueuedJobSweepSummary> {
  return sweepQueuedJobs(input);
}
