import type { FeatureRuntime } from '../platform/features/feature-runtime';
import { webhookEventCounter } from '../platform/metrics/webhook-events';
import { createWebhookEventStore } from '../platform/webhooks/webhook-events-store';
import { createIdentityActivities } from './activities';
import { createClerkVerifier } from './clerk-webhook-verifier';
import type { IdentityConfig } from './config';
import { createUserStore } from './users-store';

/**
 * The identity activities over the worker's runtime. A Clerk event is checked again with this worker's
 * CLERK_WEBHOOK_SECRET, without the api's 5-minute window (freshness is the api's check; a retry an hour later must
 * pass). An account's deactivation stops its monitors and releases its holds through the features' ports.
 */
export function identityActivities(runtime: FeatureRuntime) {
  const config = runtime.config as IdentityConfig;
  const { pool, ports } = runtime;
  return createIdentityActivities({
    pool,
    users: createUserStore(pool),
    webhookEvents: createWebhookEventStore(pool),
    stopUserMonitors: (client, userId) => ports.accountMonitors.stopAll(client, userId),
    monitorsStoppedWithUser: (client, userId) => ports.accountMonitors.stoppedWithAccount(client, userId),
    releaseUserHolds: (client, userId) => ports.accountHolds.releaseAll(client, userId),
    metrics: webhookEventCounter(runtime.metrics),
    clerkSignatures: config.CLERK_WEBHOOK_SECRET
      ? createClerkVerifier({ secret: config.CLERK_WEBHOOK_SECRET, maxAgeMs: null })
      : undefined,
  });
}
