import { VerificationUnavailableError } from './errors';
import type { PayPalMode } from './verifier';
import { deadline } from '../../platform/abort/deadline';

/** PayPal's REST API for this app: its host and the app's client credentials (PAYPAL_CLIENT_ID / _SECRET). */
export interface PayPalApiDeps {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  now?: () => number;
}

export interface PayPalApiClient {
  /**
   * One authenticated call (bearer: a cached client-credentials token; after a 401, once more with a fresh one).
   * Throws VerificationUnavailableError when PayPal cannot be reached or gives no token.
   */
  call(path: string, init: RequestInit): Promise<Response>;
}

export const paypalApiBaseUrl = (mode: PayPalMode): string =>
  mode === 'live' ? 'https://api-m.paypal.com' : 'https://api-m.sandbox.paypal.com';

/** Refresh this long before PayPal's expires_in so a token never dies in flight. */
const TOKEN_MARGIN_MS = 60_000;

/** The one client of PayPal's REST API: the postback (postback.ts) and the event lookup (event-lookup.ts) use it. */
export function createPayPalApiClient(deps: PayPalApiDeps): PayPalApiClient {
  const { clientId, clientSecret, fetch: fetchImpl = fetch, timeoutMs = 10_000, now = Date.now } = deps;
  const base = deps.baseUrl.replace(/\/+$/, '');
  let token: { value: string; expiresAtMs: number } | undefined;
  let tokenRequest: Promise<string> | undefined;

  const send = async (path: string, init: RequestInit): Promise<Response> => {
    try {
      // Left to fire (not disposed): the same deadline bounds the body read that follows.
      return await fetchImpl(`${base}${path}`, { ...init, redirect: 'error', signal: deadline(timeoutMs).signal });
    } catch (err) {
      throw new VerificationUnavailableError(`${path} request failed`, { cause: err });
    }
  };

  const requestToken = async (): Promise<string> => {
    const res = await send('/v1/oauth2/token', {
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

  const authorized = async (path: string, init: RequestInit): Promise<Response> =>
    send(path, {
      ...init,
      headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${await accessToken()}` },
    });

  return {
    async call(path, init) {
      const res = await authorized(path, init);
      if (res.status !== 401) return res;
      await res.body?.cancel();
      token = undefined;
      return authorized(path, init);
    },
  };
}
