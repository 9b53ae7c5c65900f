import type { WebhookProviderDeclaration } from '../platform/webhooks/webhook-provider';

/**
 * The history entries other services post (spec 4.5): the route's path and the provider its deliveries are counted
 * under. Its entries go to the account's history, not to webhook_events.
 */
export const HISTORY_WEBHOOK = {
  provider: 'activity',
  path: '/api/webhook/activity',
} as const satisfies WebhookProviderDeclaration;

/** The webhooks history serves (historyModule.webhookProviders). */
export const HISTORY_WEBHOOK_PROVIDERS: readonly WebhookProviderDeclaration[] = [HISTORY_WEBHOOK];
