import type { Registry } from 'prom-client';
import { httpRequestDuration } from '../../platform/metrics/http-request-duration';
import { registerAll } from '../../platform/metrics/metric-definition';
import { webhookDeliveries, type WebhookDeliveryOutcome } from '../../platform/metrics/webhook-deliveries';
import type { WebhookProvider } from '../../platform/webhooks/webhook-provider';

/**
 * What the api process counts itself: every HTTP answer, and every webhook delivery by provider and outcome. The
 * features register what they count (job submits, refused deliveries, grants, rate-limit refusals) on the same
 * registry through their runtime.
 */
export function createApiMetrics(registry: Registry) {
  const counted = registerAll(registry, { httpRequestDuration, webhookDeliveries });
  return {
    registry,
    httpRequest(method: string, route: string, status: number, seconds: number): void {
      counted.httpRequestDuration.observe({ method, route, status: String(status) }, seconds);
    },
    webhookDelivery(provider: WebhookProvider, outcome: WebhookDeliveryOutcome): void {
      counted.webhookDeliveries.inc({ provider, outcome });
    },
  };
}

export type ApiMetrics = ReturnType<typeof createApiMetrics>;
