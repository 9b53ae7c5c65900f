import { defineCounter } from '../../platform/metrics/metric-definition';

/** Counted by the worker when a job's completed result is written to the mirror (a retried write counts once). */
export const jobsCompleted = defineCounter({
  name: 'chainscreen_jobs_completed_total',
  help: 'Screening jobs whose result was written to the mirror as completed, by api_type and chain',
  labelNames: ['api_type', 'chain'],
});
