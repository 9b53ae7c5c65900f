import type { WebhookEventMetrics } from '../src/platform/metrics/webhook-events';
import { applyClerkEvent, type ClerkEventDeps } from '../src/identity/apply-clerk-event';
import type { ClerkEventInput } from '../src/identity/workflow-types';
import type { EventResult } from '../src/platform/webhooks/event-result';

export type IdentityActivityDeps = ClerkEventDeps & { metrics: WebhookEventMetrics };

/** Identity activities: thin adapters over src/identity, each one transaction. */
export function createIdentityActivities(deps: IdentityActivityDeps) {
  return {
    /** Idempotency: claim (clerk, svix-id); profile changes are guarded by the event time. */
    async applyClerkEvent(input: ClerkEventInput): Promise<EventResult> {
      const result = await applyClerkEvent(deps, input);
      deps.metrics.webhookEvent('clerk', result);
      return result;
    },
  };
}

export type IdentityActivities = ReturnType<typeof createIdentityActivities>;
