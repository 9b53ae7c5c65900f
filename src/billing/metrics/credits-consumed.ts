import { defineCounter } from '../../platform/metrics/metric-definition';

/** Counted by the worker when a completed job's charge is written (a retried charge is not counted again). */
export const creditsConsumed = defineCounter({
  name: 'chainscreen_credits_consumed_total',
  help: 'Credit units charged for completed jobs (a retried charge is counted once)',
});
