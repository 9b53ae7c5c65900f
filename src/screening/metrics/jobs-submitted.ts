import { defineCounter } from '../../platform/metrics/metric-definition';

/** Counted by the api once a job's row (and hold) is committed; each such job then ends counted completed or failed. */
export const jobsSubmitted = defineCounter({
  name: 'chainscreen_jobs_submitted_total',
  help: 'Screening jobs accepted (202, credits held, workflow started) by api_type and chain',
  labelNames: ['api_type', 'chain'],
});
