import { Router } from 'express';
import { z } from 'zod';
import { clerkWorkflowId } from './workflow-ids';
import { CLERK_WEBHOOK } from './webhook-providers';
import type { ClerkEventInput } from './workflow-types';
import type { StartEventWorkflow } from '../platform/webhooks/event-workflows';
import { noteWebhookOutcome } from '../platform/metrics/webhook-delivery-edge';
import { ClerkSignatureError, type ClerkVerifier } from './clerk-webhook-verifier';
import type { Logger } from '../platform/logging/logger';
import { httpRequestIdOf, requestLogOf } from '../platform/http/request-id';
import { bodyBytes, invalidSignature, notConfigured, rawBody } from '../platform/http/raw-body';
import { flatError } from '../platform/http/errors';
import { PLATFORM_ERRORS } from '../platform/errors';
import { findUnsafeInput } from '../platform/http/unsafe-input';

/**
 * What Clerk sends (Svix-signed); user.*, organization.* and organizationMembership.* (created / updated / deleted)
 * change something, others are acknowledged.
 */
export const clerkEventBody = z.looseObject({
  type: z.string().meta({ examples: ['user.created'] }),
  data: z.looseObject({}),
  object: z.string().optional(),
  timestamp: z.number().optional(),
});
export const webhookAcceptedResponse = z.object({
  success: z.literal(true),
  received: z.literal(true),
  duplicate: z.boolean().meta({ description: 'The event was already accepted before (nothing new is done)' }),
});

/** POST /api/webhook/clerk: Svix-verified user and organization events, one workflow per svix-id. */
export function createClerkWebhookRouter(deps: {
  verifyClerk?: ClerkVerifier;
  startEventWorkflow: StartEventWorkflow;
  log: Logger;
}): Router {
  const router = Router();
  router.post(CLERK_WEBHOOK.path, rawBody('1mb'), async (req, res) => {
    if (!deps.verifyClerk) throw notConfigured('Clerk', 'CLERK_WEBHOOK_SECRET');
    let delivery: ReturnType<NonNullable<typeof deps.verifyClerk>>;
    try {
      delivery = deps.verifyClerk(bodyBytes(req), req.headers);
    } catch (err) {
      if (err instanceof ClerkSignatureError) {
        requestLogOf(res, deps.log).warn('clerk webhook rejected', { reason: err.message });
        throw invalidSignature(err.message);
      }
      throw err;
    }
    // Signed by Clerk, yet still refused when the workflow could not store it (U+0000, prototype
    // keys, runaway nesting).
    const unsafe = findUnsafeInput(delivery.event, 'event');
    if (unsafe)
      throw flatError(
        PLATFORM_ERRORS.INVALID_EVENT,
        `The event cannot be processed: ${unsafe.parameter} must be ${unsafe.expected}`,
      );
    const accepted = await deps.startEventWorkflow({
      workflowType: 'clerkEventWorkflow',
      workflowId: clerkWorkflowId(delivery.id),
      // The signed delivery itself, not only what was read from it: the worker verifies it again before applying.
      args: [
        {
          svixId: delivery.id,
          deliveredAtMs: delivery.timestampMs,
          event: delivery.event,
          delivery: { rawBody: bodyBytes(req).toString('base64'), headers: delivery.signedHeaders },
        } satisfies ClerkEventInput,
      ],
      provider: CLERK_WEBHOOK.provider,
      eventType: delivery.event.type,
      httpRequestId: httpRequestIdOf(res),
    });
    if (accepted === 'duplicate') noteWebhookOutcome(res, 'duplicate');
    res.json({ success: true, received: true, duplicate: accepted === 'duplicate' });
  });
  return router;
}
