import type { Registry } from 'prom-client';
import { registerAll } from '../../platform/metrics/metric-definition';
import { jobDuration } from './job-duration';
import { jobsCompleted } from './jobs-completed';
import { jobsFailed } from './jobs-failed';
import type { FinishedJob } from './ports';

/**
 * Counts a job's final mirror write on `registry`: completed or failed (with its code), and its seconds since the
 * submit. Whoever writes a final state counts it (the screening activities, a batch item's settlement), once.
 */
export function finishedJobCounter(registry: Registry): { jobFinished(job: FinishedJob): void } {
  const counted = registerAll(registry, { jobsCompleted, jobsFailed, jobDuration });
  return {
    jobFinished(job) {
      const labels = { api_type: job.apiType, chain: job.chain };
      if (job.status === 'completed') counted.jobsCompleted.inc(labels);
      else counted.jobsFailed.inc({ ...labels, code: job.errorCode ?? 'UNKNOWN' });
      counted.jobDuration.observe({ ...labels, status: job.status }, job.seconds);
    },
  };
}
