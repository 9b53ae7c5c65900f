import type { PayPalApiClient } from './api-client';
import { VerificationUnavailableError } from './errors';

export interface PayPalEventLookup {
  /**
   * The event as PayPal keeps it (GET /v1/notifications/webhooks-events/{id}, this app's credentials), as raw bytes;
   * null when PayPal knows no such event for this app. Throws VerificationUnavailableError when PayPal gives no answer.
   */
  find(eventId: string): Promise<Buffer | null>;
}

/** PayPal's copy of an event: what the worker applies for a workflow that carries no signed delivery. */
export function createPayPalEventLookup(api: PayPalApiClient): PayPalEventLookup {
  return {
    async find(eventId) {
      const res = await api.call(`/v1/notifications/webhooks-events/${encodeURIComponent(eventId)}`, {
        method: 'GET',
        headers: { accept: 'application/json' },
      });
      // 404: no such event for this app; 400: no id PayPal could have issued.
      if (res.status === 404 || res.status === 400) {
        await res.body?.cancel();
        return null;
      }
      if (res.status !== 200) {
        await res.body?.cancel();
        throw new VerificationUnavailableError(`webhooks-events/${eventId} answered HTTP ${res.status}`);
      }
      return Buffer.from(await res.arrayBuffer());
    },
  };
}
