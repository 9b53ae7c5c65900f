import { VerificationUnavailableError } from './errors';
import { readPayPalTransmission, type PayPalWebhookInput } from './signature';
import type { PayPalMode } from './verifier';
import { deadline } from '../../platform/abort/deadline';

export interface PayPalPostbackVerifier {
  /** true = SUCCESS, false = FAILURE; throws VerificationUnavailableError when PayPal gave no verdict. */
  verify(input: PayPalWebhookInput): Promise<boolean>;
}

export interface PayPalPostbackDeps {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  webhookId: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  now?: () => number;
}

export const paypalApiBaseUrl = (mode: PayPalMode): string =>
  mode === 'live' ? 'https://api-m.paypal.com' : 'https://api-m.sandbox.paypal.com';

/** Refresh this long before PayPal's expires_in so a token never dies in flight. */
const TOKEN_MARGIN_MS = 60_000;

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
  const { clientId, clientSecret, webhookId, fetch: fetchImpl = fetch, timeoutMs = 10_000, now = Date.now } = deps;
  const base = deps.baseUrl.replace(/\/+$/, '');
  let token: { value: string; expiresAtMs: number } | undefined;
  let tokenRequest: Promise<string> | undefined;

  const call = async (path: string, init: RequestInit): Promise<Response> => {
    try {
      // Left to fire (not disposed): the same deadline bounds the body read that follows.
      return await fetchImpl(`${base}${path}`, { ...init, redirect: 'error', signal: deadline(timeoutMs).signal });
    } catch (err) {
      throw new VerificationUnavailableError(`${path} request failed`, { cause: err });
    }
  };

  const requestToken = async (): Promise<string> => {
    const res = await call('/v1/oauth2/token', {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
    });
    if (res.status !== 200) {
      await res.body?.cancel();
      throw new VerificationUnavailableError(`OAuth token request answered HTTP ${res.status}`);
    }
    const body = (await res.json().catch(() => null)) as { access_token?: unknown; expires_in?: unknown } | null;
    if (typeof body?.access_token !== 'string')
      throw new VerificationUnavailableError('OAuth token response has no access_token');
    const lifetimeMs = typeof body.expires_in === 'number' ? body.expires_in * 1000 : 0;
    token = { value: body.access_token, expiresAtMs: now() + lifetimeMs - TOKEN_MARGIN_MS };
    return body.access_token;
  };

  const accessToken = (): Promise<string> => {
    if (token && now() < token.expiresAtMs) return Promise.resolve(token.value);
    tokenRequest ??= requestToken().finally(() => (tokenRequest = undefined));
    return tokenRequest;
  };

  const postVerify = async (body: Buffer, bearer: string): Promise<Response> =>
    call('/v1/notifications/verify-webhook-signature', {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/json' },
      body: new Uint8Array(body),
    });

  return {
    async verify(input) {
      const body = buildVerifyRequestBody(input, webhookId);
      if (!body) return false;
      let res = await postVerify(body, await accessToken());
      if (res.status === 401) {
        await res.body?.cancel();
        token = undefined;
        res = await postVerify(body, await accessToken());
      }
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
