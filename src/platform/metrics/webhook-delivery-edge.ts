import type { RequestHandler, Response } from 'express';
import type { WebhookProvider } from '../webhooks/webhook-provider';
import type { WebhookDeliveryOutcome } from './webhook-deliveries';

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

/**
 * Counts every POST to a webhook endpoint once, when its answer is finished. The endpoints are the features'
 * declarations (webhookProvidersByPath), handed in by the composition root.
 */
export function webhookDeliveryMetrics(
  providersByPath: ReadonlyMap<string, WebhookProvider>,
  metrics: { webhookDelivery(provider: WebhookProvider, outcome: WebhookDeliveryOutcome): void },
): RequestHandler {
  return (req, res, next) => {
    const provider = req.method === 'POST' ? providersByPath.get(req.path) : undefined;
    if (provider) {
      res.once('finish', () => {
        const noted = res.locals.webhookOutcome as AcknowledgedAs | undefined;
        metrics.webhookDelivery(provider, deliveryOutcome(res.statusCode, noted));
      });
    }
    next();
  };
}
