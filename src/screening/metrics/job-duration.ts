import { defineHistogram } from '../../platform/metrics/metric-definition';

/** Observed by the worker with each final mirror write, completed or failed. */
export const jobDuration = defineHistogram({
  name: 'chainscreen_job_duration_seconds',
  help: 'Submission (job row created) to final mirror write, by api_type, chain and status',
  labelNames: ['api_type', 'chain', 'status'],
  // Jobs take from tens of milliseconds (reference data only) to minutes (a crawlTimeout of 120 s, retries).
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300],
});
