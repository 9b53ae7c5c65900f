import type { Registry } from 'prom-client';
import { registerAll } from '../../platform/metrics/metric-definition';
import { webhookEvents, type WebhookEventMetrics } from '../../platform/metrics/webhook-events';
import { creditsGranted } from './credits-granted';
import { creditsRevoked } from './credits-revoked';

/**
 * Counts each processed payment event by outcome, and the credits a grant or a take-back moved (never a duplicate's).
 */
export function paymentEventCounter(registry: Registry): WebhookEventMetrics {
  const counted = registerAll(registry, { webhookEvents, creditsGranted, creditsRevoked });
  return {
    webhookEvent(provider, result) {
      counted.webhookEvents.inc({ provider, outcome: result.duplicate ? 'duplicate' : result.outcome });
      if (result.duplicate) return;
      const source = { source: provider };
      if (result.outcome === 'granted' && result.credits > 0) counted.creditsGranted.inc(source, result.credits);
      if (result.outcome === 'revoked' && result.credits < 0) counted.creditsRevoked.inc(source, -result.credits);
    },
  };
}
