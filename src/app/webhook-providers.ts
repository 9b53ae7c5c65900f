import { webhookProvidersByPath } from '../platform/webhooks/webhook-routes';
import type { WebhookProvider } from '../platform/webhooks/webhook-provider';
import { FEATURES } from './features';

/** Every webhook endpoint the features declare, and the provider its deliveries are counted under. */
export function featureWebhookProviders(): ReadonlyMap<string, WebhookProvider> {
  return webhookProvidersByPath(FEATURES.flatMap((feature) => feature.webhookProviders ?? []));
}
