import { Router } from 'express';
import { z } from 'zod';
import { paypalWorkflowId } from '../workflow-ids';
import { PAYPAL_WEBHOOK } from '../webhook-providers';
import { PAYPAL_ACTED_ON, parsePayPalEvent, PayPalEventError } from './paypal-event';
import type { WebhookEventStore } from '../../platform/webhooks/webhook-events-store';
import type { StartEventWorkflow } from '../../platform/webhooks/event-workflows';
import { noteWebhookOutcome } from '../../platform/metrics/webhook-delivery-edge';
import { VerificationUnavailableError, WebhookSignatureError, type PayPalRefusalReason } from './errors';
import type { PayPalVerifier } from './verifier';
import { paypalTransmissionHeaders } from './signature';
import type { PayPalEventInput } from '../workflow-types';
import { flatError } from '../../platform/http/errors';
import type { Logger } from '../../platform/logging/logger';
import { httpRequestIdOf, requestLogOf } from '../../platform/http/request-id';
import { bodyBytes, invalidSignature, notConfigured, rawBody } from '../../platform/http/raw-body';
import { findUnsafeInput } from '../../platform/http/unsafe-input';
import { BILLING_ERRORS } from '../error-codes';
import { PLATFORM_ERRORS } from '../../platform/errors';

export interface PayPalWebhookDeps {
  paypalVerifier?: PayPalVerifier;
  startEventWorkflow: StartEventWorkflow;
  webhookEvents: WebhookEventStore;
  unknownSubscriptionRetryMs: number;
  log: Logger;
  metrics: { paypalDeliveryRefused(reason: PayPalRefusalReason): void };
}

/** A PayPal webhook event (the parts read; PayPal sends more). */
export const paypalEventBody = z.looseObject({
  id: z
    .string()
    .min(1)
    .max(200)
    .meta({ examples: ['WH-2WR32451HC0233532-67976317FL4543714'] }),
  event_type: z
    .string()
    .min(1)
    .max(200)
    .meta({
      description: `Acted on: ${PAYPAL_ACTED_ON.join(', ')}; others are recorded and acknowledged`,
    }),
  create_time: z.string().optional(),
  resource: z
    .looseObject({})
    .optional()
    .meta({ description: 'The subscription (custom_id names the user), the sale, the refund or the dispute' }),
});
export const paypalAcceptedResponse = z.union([
  z.object({ success: z.literal(true), received: z.literal(true), duplicate: z.boolean() }),
  z.object({
    success: z.literal(true),
    received: z.literal(true),
    handled: z.literal(false).meta({ description: 'An event type this service does not act on' }),
  }),
]);

/**
 * POST /api/v1/billing/paypal/webhook: signature first (401 when forged, 503 when it cannot be
 * checked now), then the event's shape (400, e.g. a subscription without custom_id), then one
 * workflow per event id. Event types this service does not act on are recorded and acknowledged.
 */
export function createPayPalWebhookRouter(deps: PayPalWebhookDeps): Router {
  const router = Router();
  router.post(PAYPAL_WEBHOOK.path, rawBody('1mb'), async (req, res) => {
    if (!deps.paypalVerifier) throw notConfigured('PayPal', 'PAYPAL_WEBHOOK_ID');
    const raw = bodyBytes(req);
    try {
      await deps.paypalVerifier.verify({ headers: req.headers, rawBody: raw });
    } catch (err) {
      if (err instanceof WebhookSignatureError || err instanceof VerificationUnavailableError)
        deps.metrics.paypalDeliveryRefused(err.refusal);
      // Logged: a stale pinned intermediate would show up here as every delivery failing the chain check.
      if (err instanceof WebhookSignatureError) {
        requestLogOf(res, deps.log).warn('paypal webhook rejected', {
          reason: err.message,
          refusal: err.refusal,
          transmissionId: req.get('paypal-transmission-id'),
        });
        throw invalidSignature(err.message);
      }
      if (err instanceof VerificationUnavailableError)
        throw flatError(
          BILLING_ERRORS.VERIFICATION_UNAVAILABLE,
          'The signature cannot be checked right now; please retry',
        );
      throw err;
    }

    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      throw flatError(PLATFORM_ERRORS.INVALID_EVENT, 'The body is not JSON');
    }
    // Signed by PayPal, yet still refused when it could not be stored (U+0000, prototype keys, runaway nesting).
    const unsafe = findUnsafeInput(body, 'body');
    if (unsafe)
      throw flatError(
        PLATFORM_ERRORS.INVALID_EVENT,
        `The event cannot be processed: ${unsafe.parameter} must be ${unsafe.expected}`,
      );
    let event: ReturnType<typeof parsePayPalEvent>;
    try {
      event = parsePayPalEvent(body);
    } catch (err) {
      if (err instanceof PayPalEventError) throw flatError(err.entry, err.message);
      throw err;
    }

    if (event.kind === 'unhandled') {
      await deps.webhookEvents.recordOnce({
        provider: PAYPAL_WEBHOOK.provider,
        eventId: event.eventId,
        eventType: event.eventType,
        userId: null,
        outcome: 'ignored',
        detail: `event type ${event.eventType} is not handled`,
        credits: 0,
        transactionId: null,
        payload: body,
      });
      noteWebhookOutcome(res, 'ignored');
      res.json({ success: true, received: true, handled: false });
      return;
    }
    const accepted = await deps.startEventWorkflow({
      workflowType: 'paypalEventWorkflow',
      workflowId: paypalWorkflowId(event.eventId),
      // The delivery itself, not only what was read from it: the worker verifies it again before applying anything.
      args: [
        {
          event,
          delivery: { rawBody: raw.toString('base64'), headers: paypalTransmissionHeaders(req.headers) },
          unknownSubscriptionRetryMs: deps.unknownSubscriptionRetryMs,
        } satisfies PayPalEventInput,
      ],
      provider: PAYPAL_WEBHOOK.provider,
      eventType: event.eventType,
      httpRequestId: httpRequestIdOf(res),
    });
    if (accepted === 'duplicate') noteWebhookOutcome(res, 'duplicate');
    res.json({ success: true, received: true, duplicate: accepted === 'duplicate' });
  });
  return router;
}
