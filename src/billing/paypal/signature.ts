import { verify, X509Certificate } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { WebhookSignatureError } from './errors';

export type PayPalHeaders = Record<string, string | string[] | undefined>;

/** What the route hands over: the request headers and the body exactly as received (never re-serialized JSON). */
export interface PayPalWebhookInput {
  headers: PayPalHeaders;
  rawBody: Buffer;
}

/** The PAYPAL-* headers of one delivery. */
export interface PayPalTransmission {
  transmissionId: string;
  transmissionTime: string;
  transmissionSig: string;
  certUrl: string;
  authAlgo: string;
}

/** The only algorithm PayPal uses; anything else is refused rather than mapped to some Node digest name. */
export const PAYPAL_AUTH_ALGO = 'SHA256withRSA';

const HEADERS = { refusal: 'headers' } as const;

/** Reads the transmission headers case-insensitively; a missing, empty or repeated header rejects the delivery. */
export function readPayPalTransmission(headers: PayPalHeaders): PayPalTransmission {
  const lower = new Map<string, string | string[] | undefined>();
  for (const [name, value] of Object.entries(headers)) lower.set(name.toLowerCase(), value);
  const required = (name: string): string => {
    const value = lower.get(name);
    if (Array.isArray(value)) throw new WebhookSignatureError(`${name} header appears more than once`, HEADERS);
    if (typeof value !== 'string' || value.trim() === '')
      throw new WebhookSignatureError(`${name} header is missing`, HEADERS);
    return value.trim();
  };
  const transmission: PayPalTransmission = {
    transmissionId: required('paypal-transmission-id'),
    transmissionTime: required('paypal-transmission-time'),
    transmissionSig: required('paypal-transmission-sig'),
    certUrl: required('paypal-cert-url'),
    authAlgo: required('paypal-auth-algo'),
  };
  if (transmission.authAlgo !== PAYPAL_AUTH_ALGO) {
    throw new WebhookSignatureError(`paypal-auth-algo ${transmission.authAlgo} is not ${PAYPAL_AUTH_ALGO}`, HEADERS);
  }
  return transmission;
}

/**
 * The string PayPal signs: `id|time|webhookId|crc32(body)`, the CRC-32 (zlib/IEEE) of the raw body bytes written as
 * an unsigned decimal. The webhook id is our configured one, so an event signed for another webhook never matches.
 */
export function paypalSignedMessage(
  transmissionId: string,
  transmissionTime: string,
  webhookId: string,
  rawBody: Buffer,
): string {
  return `${transmissionId}|${transmissionTime}|${webhookId}|${crc32(rawBody) >>> 0}`;
}

/** SHA256withRSA (RSASSA-PKCS1-v1_5) check of `message` against the certificate's key. Any malformed input is false. */
export function verifyPayPalSignature(
  certPem: string | X509Certificate,
  message: string,
  signatureBase64: string,
): boolean {
  try {
    const cert = typeof certPem === 'string' ? new X509Certificate(certPem) : certPem;
    if (cert.publicKey.asymmetricKeyType !== 'rsa') return false;
    const signature = Buffer.from(signatureBase64, 'base64');
    if (signature.length === 0) return false;
    return verify('sha256', Buffer.from(message, 'utf8'), cert.publicKey, signature);
  } catch {
    return false;
  }
}

/**
 * The transmission headers of a delivery under their lower-case names: what the workflow input carries so the worker
 * verifies the delivery again, and all the verifier reads. Throws WebhookSignatureError like readPayPalTransmission.
 */
export function paypalTransmissionHeaders(headers: PayPalHeaders): Record<string, string> {
  const t = readPayPalTransmission(headers);
  return {
    'paypal-transmission-id': t.transmissionId,
    'paypal-transmission-time': t.transmissionTime,
    'paypal-transmission-sig': t.transmissionSig,
    'paypal-cert-url': t.certUrl,
    'paypal-auth-algo': t.authAlgo,
  };
}
