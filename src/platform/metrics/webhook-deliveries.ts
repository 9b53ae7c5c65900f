import { defineCounter } from './metric-definition';

/** Where a webhook delivery ended at the HTTP edge (what the event then did is webhook-events). */
export type WebhookDeliveryOutcome = 'accepted' | 'duplicate' | 'ignored' | 'rejected' | 'forged' | 'unavailable';

/** Every POST to a webhook endpoint of the api, counted once its answer finished. */
export const webhookDeliveries = defineCounter({
  name: 'chainscreen_webhook_deliveries_total',
  help:
    'Webhook deliveries by provider and edge outcome: accepted, duplicate, ignored, rejected (4xx), ' +
    'forged (401: bad signature or secret), unavailable (5xx)',
  labelNames: ['provider', 'outcome'],
});
