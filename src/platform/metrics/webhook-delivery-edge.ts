import type { RequestHandler, Response } from 'express';
import type { WebhookDeliveryOutcome, WebhookSource } from './webhook-deliveries';

/** The webhook endpoints and the provider each one serves. */
export const WEBHOOK_ROUTES: Readonly<Record<string, WebhookSource>> = {
  '/api/v1/billing/paypal/webhook': 'paypal',
  '/api/v1/billing/payfast/webhook': 'payfast',
  '/api/webhook/clerk': 'clerk',
  '/api/webhook/activity': 'activity',
};

/** What a webhook route can say about a 2xx it sent; without a note a 2xx is `accepted`. */
export type AcknowledgedAs = Extract<WebhookDeliveryOutcome, 'duplicate' | 'ignored'>;

/** Webhook routes call this before answering 2xx when the delivery was a repeat or is not acted on. */
export function noteWebhookOutcome(res: Response, outcome: AcknowledgedAs): void {
  res.locals.webhookOutcome = outcome;
}

/**
 * The edge outcome of a delivery, from its status: 401 is a signature (or shared secret) that did not
 * verify, which is what a forgery looks like from here; other 4xx are refusals of the content; 5xx
 * means the provider will retry.
 */
export function deliveryOutcome(status: number, noted: AcknowledgedAs | undefined): WebhookDeliveryOutcome {
  if (status === 401) return 'forged';
  if (status >= 500) return 'unavailable';
  if (status >= 400) return 'rejected';
  return noted ?? 'accepted';
}

/** Counts every POST to a webhook endpoint once, when its answer is finished. */
export function webhookDeliveryMetrics(metrics: {
  webhookDelivery(provider: WebhookSource, outcome: WebhookDeliveryOutcome): void;
}): RequestHandler {
  return (req, res, next) => {
    const provider = req.method === 'POST' ? WEBHOOK_ROUTES[req.path] : undefined;
    if (provider) {
      res.once('finish', () => {
        const noted = res.locals.webhookOutcome as AcknowledgedAs | undefined;
        metrics.webhookDelivery(provider, deliveryOutcome(res.statusCode, noted));
      });
    }
    next();
  };
}
