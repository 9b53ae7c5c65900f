import { defineCounter } from '../../platform/metrics/metric-definition';

/**
 * Credits granted, counted by the process that grants them, each grant once: the api for admin grants
 * (source admin), the worker for payment events (source paypal, payfast).
 */
export const creditsGranted = defineCounter({
  name: 'chainscreen_credits_granted_total',
  help:
    'Credit units granted, by source: admin (POST /api/v1/credits/grant, counted by the api) ' +
    'or a payment event (paypal, payfast, counted by the worker)',
  labelNames: ['source'],
});
