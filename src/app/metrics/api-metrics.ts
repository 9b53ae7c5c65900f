import { Counter, Histogram, type Registry } from 'prom-client';

/** Where a webhook delivery ended at the HTTP edge (what the event then did is counted by the worker). */
export type WebhookDeliveryOutcome = 'accepted' | 'duplicate' | 'ignored' | 'rejected' | 'forged' | 'unavailable';
export type WebhookSource = 'paypal' | 'payfast' | 'clerk' | 'activity';

// From a cached poll (a few ms) to a deprecated synchronous analyze (up to SYNC_ANALYZE_WAIT_MS).
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];

/**
 * What the api process counts: every HTTP answer, job submissions, webhook deliveries, admin credit
 * grants and rate-limit refusals. Routers and services receive this object through their deps.
 */
export function createApiMetrics(registry: Registry) {
  const registers = [registry];
  const httpDuration = new Histogram({
    name: 'chainscreen_http_request_duration_seconds',
    help: 'HTTP requests by method, route template (<unmatched> when no route matched) and status, from arrival to the last byte written',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers,
  });
  const jobsSubmitted = new Counter({
    name: 'chainscreen_jobs_submitted_total',
    help: 'Screening jobs accepted (202, credits held, workflow started) by api_type and chain',
    labelNames: ['api_type', 'chain'] as const,
    registers,
  });
  const jobsFailed = new Counter({
    name: 'chainscreen_jobs_failed_total',
    help: 'Screening jobs failed by the api itself (code NOT_STARTED: the workflow could not be started); analysis failures are counted by the worker',
    labelNames: ['api_type', 'chain', 'code'] as const,
    registers,
  });
  const webhookDeliveries = new Counter({
    name: 'chainscreen_webhook_deliveries_total',
    help: 'Webhook deliveries by provider and edge outcome: accepted, duplicate, ignored, rejected (4xx), forged (401: bad signature or secret), unavailable (5xx)',
    labelNames: ['provider', 'outcome'] as const,
    registers,
  });
  const creditsGranted = new Counter({
    name: 'chainscreen_credits_granted_total',
    help: 'Credit units granted by this process, by source (admin: POST /api/v1/credits/grant); payment grants are counted by the worker',
    labelNames: ['source'] as const,
    registers,
  });
  const rateLimitRejections = new Counter({
    name: 'chainscreen_rate_limit_rejections_total',
    help: 'Requests refused with 429 by the per-key market-data limit, by tier (free also covers addresses guessing keys)',
    labelNames: ['tier'] as const,
    registers,
  });

  return {
    registry,
    httpRequest(method: string, route: string, status: number, seconds: number): void {
      httpDuration.observe({ method, route, status: String(status) }, seconds);
    },
    jobSubmitted(apiType: string, chain: string): void {
      jobsSubmitted.inc({ api_type: apiType, chain });
    },
    jobFailed(apiType: string, chain: string, code: string): void {
      jobsFailed.inc({ api_type: apiType, chain, code });
    },
    webhookDelivery(provider: WebhookSource, outcome: WebhookDeliveryOutcome): void {
      webhookDeliveries.inc({ provider, outcome });
    },
    creditsGranted(source: string, amount: number): void {
      if (amount > 0) creditsGranted.inc({ source }, amount);
    },
    rateLimitRejected(tier: string): void {
      rateLimitRejections.inc({ tier });
    },
  };
}

export type ApiMetrics = ReturnType<typeof createApiMetrics>;
