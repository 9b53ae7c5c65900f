import { defineCounter } from '../../platform/metrics/metric-definition';

/** Counted by the worker when a refund or reversal event takes credits back. */
export const creditsRevoked = defineCounter({
  name: 'chainscreen_credits_revoked_total',
  help: 'Credit units taken back by refunds and reversals, by source (paypal, payfast)',
  labelNames: ['source'],
});
