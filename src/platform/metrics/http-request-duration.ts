import { defineHistogram } from './metric-definition';

/** Every HTTP answer of the api, observed by the access log middleware (requestIdAndAccessLog). */
export const httpRequestDuration = defineHistogram({
  name: 'chainscreen_http_request_duration_seconds',
  help:
    'HTTP requests by method, route template (<unmatched> when no route matched) and status, ' +
    'from arrival to the last byte written',
  labelNames: ['method', 'route', 'status'],
  // From a cached poll (a few ms) to a deprecated synchronous analyze (up to SYNC_ANALYZE_WAIT_MS).
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120],
});
