import { defineCounter } from '../../platform/metrics/metric-definition';

/**
 * Jobs that ended failed, counted by the process that failed them, each failure once: the worker when its
 * final mirror write (or the queued-job sweeper) fails a job, the api when a job's workflow could not be
 * started (NOT_STARTED). A dashboard sums the two processes for every failed job.
 */
export const jobsFailed = defineCounter({
  name: 'chainscreen_jobs_failed_total',
  help:
    'Screening jobs that ended failed, by api_type, chain and error code. The worker counts its failed final ' +
    'mirror writes and the jobs its queued-job sweeper failed; the api the jobs whose workflow could not be started ' +
    '(NOT_STARTED)',
  labelNames: ['api_type', 'chain', 'code'],
});
