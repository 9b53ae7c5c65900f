import type { Registry } from 'prom-client';
import { creditsGranted } from '../../billing/metrics/credits-granted';
import { paypalDeliveriesRefused } from '../../billing/metrics/paypal-deliveries-refused';
import { httpRequestDuration } from '../../platform/metrics/http-request-duration';
import { registerAll } from '../../platform/metrics/metric-definition';
import { rateLimitRejections } from '../../platform/metrics/rate-limit-rejections';
import { webhookDeliveries, type WebhookDeliveryOutcome } from '../../platform/metrics/webhook-deliveries';
import type { WebhookProvider } from '../../platform/webhooks/webhook-provider';
import { jobsFailed } from '../../screening/metrics/jobs-failed';
import { jobsSubmitted } from '../../screening/metrics/jobs-submitted';

/**
 * What the api process counts: every HTTP answer, job submissions (and the jobs it fails itself because
 * their workflow did not start), webhook deliveries (and why PayPal deliveries were refused), admin credit grants
 * and rate-limit refusals.
 * Routers and services receive this object through their deps.
 */
export function createApiMetrics(registry: Registry) {
  const counted = registerAll(registry, {
    httpRequestDuration,
    jobsSubmitted,
    jobsFailed,
    webhookDeliveries,
    paypalDeliveriesRefused,
    creditsGranted,
    rateLimitRejections,
  });

  return {
    registry,
    httpRequest(method: string, route: string, status: number, seconds: number): void {
      counted.httpRequestDuration.observe({ method, route, status: String(status) }, seconds);
    },
    jobSubmitted(apiType: string, chain: string): void {
      counted.jobsSubmitted.inc({ api_type: apiType, chain });
    },
    jobFailed(apiType: string, chain: string, code: string): void {
      counted.jobsFailed.inc({ api_type: apiType, chain, code });
    },
    webhookDelivery(provider: WebhookProvider, outcome: WebhookDeliveryOutcome): void {
      counted.webhookDeliveries.inc({ provider, outcome });
    },
    paypalDeliveryRefused(reason: string): void {
      counted.paypalDeliveriesRefused.inc({ reason });
    },
    creditsGranted(source: string, amount: number): void {
      if (amount > 0) counted.creditsGranted.inc({ source }, amount);
    },
    rateLimitRejected(tier: string): void {
      counted.rateLimitRejections.inc({ tier });
    },
  };
}

export type ApiMetrics = ReturnType<typeof createApiMetrics>;
