import { VerificationUnavailableError } from './errors';
import { readPayPalTransmission, type PayPalWebhookInput } from './signature';
import { createPayPalApiClient, paypalApiBaseUrl, type PayPalApiDeps } from './api-client';

export interface PayPalPostbackVerifier {
  /** true = SUCCESS, false = FAILURE; throws VerificationUnavailableError when PayPal gave no verdict. */
  verify(input: PayPalWebhookInput): Promise<boolean>;
}

export interface PayPalPostbackDeps extends PayPalApiDeps {
  webhookId: string;
}

export { paypalApiBaseUrl };

/**
 * Builds the verify-webhook-signature body by splicing the raw event bytes in as `webhook_event`: re-serializing a
 * parsed object changes the bytes (`1.0` → `1`, key order) and PayPal then answers FAILURE. The body must be exactly
 * one JSON object, otherwise something like `1,"webhook_id":"…"` could smuggle a second webhook_id into the request.
 */
export function buildVerifyRequestBody(input: PayPalWebhookInput, webhookId: string): Buffer | null {
  let event: unknown;
  try {
    event = JSON.parse(input.rawBody.toString('utf8'));
  } catch {
    return null;
  }
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return null;
  const t = readPayPalTransmission(input.headers);
  const head =
    `{"auth_algo":${JSON.stringify(t.authAlgo)},"cert_url":${JSON.stringify(t.certUrl)},` +
    `"transmission_id":${JSON.stringify(t.transmissionId)},"transmission_sig":${JSON.stringify(t.transmissionSig)},` +
    `"transmission_time":${JSON.stringify(t.transmissionTime)},"webhook_id":${JSON.stringify(webhookId)},` +
    `"webhook_event":`;
  return Buffer.concat([Buffer.from(head, 'utf8'), input.rawBody, Buffer.from('}', 'utf8')]);
}

/** PayPal's own verdict via POST /v1/notifications/verify-webhook-signature, with a cached client-credentials token. */
export function createPayPalPostbackVerifier(deps: PayPalPostbackDeps): PayPalPostbackVerifier {
  const api = createPayPalApiClient(deps);
  return {
    async verify(input) {
      const body = buildVerifyRequestBody(input, deps.webhookId);
      if (!body) return false;
      const res = await api.call('/v1/notifications/verify-webhook-signature', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: new Uint8Array(body),
      });
      if (res.status !== 200) {
        await res.body?.cancel();
        throw new VerificationUnavailableError(`verify-webhook-signature answered HTTP ${res.status}`);
      }
      const verdict = (await res.json().catch(() => null)) as { verification_status?: unknown } | null;
      if (typeof verdict?.verification_status !== 'string') {
        throw new VerificationUnavailableError('verify-webhook-signature answered without verification_status');
      }
      return verdict.verification_status === 'SUCCESS';
    },
  };
}
