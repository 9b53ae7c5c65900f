import { WebhookSignatureError } from './errors';
import type { PayPalMode } from './verifier';

/**
 * Hosts PayPal serves webhook signing certificates from. Matched exactly: a suffix test would accept
 * `api.sandbox.paypal.com.evil.example`, and an unparsed string test would accept `…paypal.com@evil.example`.
 */
const CERT_HOSTS: Record<PayPalMode, readonly string[]> = {
  sandbox: ['api.sandbox.paypal.com', 'api-m.sandbox.paypal.com'],
  live: ['api.paypal.com', 'api-m.paypal.com'],
};

const CERT_URL = { refusal: 'cert_url' } as const;

const CERT_PATH_PREFIX = '/v1/notifications/certs/';

/**
 * Parses the PAYPAL-CERT-URL header and accepts it only if it names PayPal's certificate endpoint for `mode`.
 * Runs before any fetch, so a forged header can neither make us fetch an attacker's certificate nor reach other hosts.
 */
export function parsePayPalCertUrl(raw: string, mode: PayPalMode): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookSignatureError('paypal-cert-url is not a URL', CERT_URL);
  }
  if (url.protocol !== 'https:') throw new WebhookSignatureError('paypal-cert-url is not https', CERT_URL);
  if (url.username !== '' || url.password !== '')
    throw new WebhookSignatureError('paypal-cert-url carries credentials', CERT_URL);
  if (url.port !== '' && url.port !== '443')
    throw new WebhookSignatureError('paypal-cert-url uses a non-standard port', CERT_URL);
  if (!CERT_HOSTS[mode].includes(url.hostname)) {
    throw new WebhookSignatureError(
      `paypal-cert-url host ${url.hostname} is not a PayPal ${mode} certificate host`,
      CERT_URL,
    );
  }
  if (!url.pathname.startsWith(CERT_PATH_PREFIX)) {
    throw new WebhookSignatureError('paypal-cert-url is not a PayPal certificate path', CERT_URL);
  }
  return url;
}
