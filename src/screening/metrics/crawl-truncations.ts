import { defineCounter } from '../../platform/metrics/metric-definition';

/** Counted by the worker for each reason an analysis's exposure crawl stopped early (fan-out trimming is not a cut). */
export const crawlTruncations = defineCounter({
  name: 'chainscreen_crawl_truncations_total',
  help:
    'Exposure crawls cut short, by chain and reason (deadline, request_budget, node_budget, no_address_index); ' +
    'one analysis may count several reasons',
  labelNames: ['chain', 'reason'],
});
