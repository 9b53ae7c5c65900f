import { defineCounter } from './metric-definition';

/** The api's 429s from the per-account market-data limit (countingRejections). */
export const rateLimitRejections = defineCounter({
  name: 'chainscreen_rate_limit_rejections_total',
  help:
    'Requests refused with 429 by the per-account market-data limit, by tier ' +
    '(free also covers addresses guessing keys)',
  labelNames: ['tier'],
});
