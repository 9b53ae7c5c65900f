import type { Registry } from 'prom-client';
import { defineCounter } from './metric-definition';

/** What each provider event did once the worker processed it (its delivery is webhook-deliveries). */
export const webhookEvents = defineCounter({
  name: 'chainscreen_webhook_events_total',
  help:
    'Provider events processed by the worker, by provider and what they did: ' +
    'granted, revoked, applied, logged, ignored, rejected, or duplicate (done before)',
  labelNames: ['provider', 'outcome'],
});

/** What the worker's event activities report once an event's transaction has committed. */
export interface WebhookEventMetrics {
  webhookEvent(provider: string, result: { duplicate: boolean; outcome: string; credits: number }): void;
}

/** Counts each processed event on `registry` by provider and outcome (a duplicate as `duplicate`). */
export function webhookEventCounter(registry: Registry): WebhookEventMetrics {
  const counter = webhookEvents.register(registry);
  return {
    webhookEvent(provider, result) {
      counter.inc({ provider, outcome: result.duplicate ? 'duplicate' : result.outcome });
    },
  };
}
