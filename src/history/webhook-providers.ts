import type { WebhookProviderDeclaration } from '../platform/webhooks/webhook-provider';

/**
 * The activity records other services post (spec 4.5): the route's path and the provider its deliveries are counted
 * under. Its records go to the activity history, not to webhook_events.
 */
export const ACTIVITY_WEBHOOK = {
  provider: 'activity',
  path: '/api/webhook/activity',
} as const satisfies WebhookProviderDeclaration;

/** The webhooks history serves (historyModule.webhookProviders). */
export const HISTORY_WEBHOOK_PROVIDERS: readonly WebhookProviderDeclaration[] = [ACTIVITY_WEBHOOK];
