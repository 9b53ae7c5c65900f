import type { WebhookEventMetrics } from '../platform/metrics/webhook-events';
import { applyClerkEvent, type ClerkEventDeps, type ClerkEventResult } from './apply-clerk-event';
import { authenticClerkEvent } from './authentic-clerk-event';
import type { ClerkVerifier } from './clerk-webhook-verifier';
import type { ClerkEventInput } from './workflow-types';
import { toApplicationFailure } from '../platform/errors/temporal-failures';

export type IdentityActivityDeps = ClerkEventDeps & {
  metrics: WebhookEventMetrics;
  /** The Svix check with this worker's CLERK_WEBHOOK_SECRET, without the api's freshness window. */
  clerkSignatures?: ClerkVerifier;
};

/** Identity activities: thin adapters over src/identity, each one transaction. */
export function createIdentityActivities(deps: IdentityActivityDeps) {
  return {
    /**
     * First proves the delivery is Clerk's (Svix signature checked again; a forged or tampered input fails
     * CLERK_EVENT_NOT_AUTHENTIC with nothing recorded), then applies the event read from the signed bytes.
     * Idempotency: claim (clerk, svix-id); profile changes are guarded by the event time.
     */
    async applyClerkEvent(input: ClerkEventInput): Promise<ClerkEventResult> {
      let authentic: ClerkEventInput;
      try {
        authentic = authenticClerkEvent(deps.clerkSignatures, input);
      } catch (err) {
        throw toApplicationFailure(err);
      }
      const result = await applyClerkEvent(deps, authentic);
      deps.metrics.webhookEvent('clerk', result);
      return result;
    },
  };
}

export type IdentityActivities = ReturnType<typeof createIdentityActivities>;
