import type { X509Certificate } from 'node:crypto';
import { createCertificateCache } from './certificate-cache';
import { assertTrustedSigningCertificate, CertificateFetchError, parseCertificateBundle } from './certificates';
import { parsePayPalCertUrl } from './cert-url';
import { VerificationUnavailableError, WebhookSignatureError } from './errors';
import type { PayPalPostbackVerifier } from './postback';
import {
  paypalSignedMessage,
  readPayPalTransmission,
  verifyPayPalSignature,
  type PayPalWebhookInput,
} from './signature';
import { createTokenBucket, type TokenBucket } from '../../platform/http-client/token-bucket';

export type PayPalMode = 'sandbox' | 'live';

export interface PayPalVerifierDeps {
  mode: PayPalMode;
  /** PAYPAL_WEBHOOK_ID from configuration; never taken from the request. */
  webhookId: string;
  /** Production: fetchPayPalCertificate. Only ever called with a URL that passed the allowlist. */
  fetchCert: (url: URL) => Promise<string>;
  /** The chain must end at one of these (production: defaultTrustAnchors()). */
  trustAnchors: X509Certificate[];
  /** Pinned intermediates (production: loadPinnedIntermediates()); the cert URL usually serves only the leaf. */
  intermediates?: X509Certificate[];
  now?: () => Date;
  /** Used only when the certificate cannot be fetched or parsed, never to overrule a failed check. */
  postback?: PayPalPostbackVerifier;
  /**
   * How many postbacks may go out (each is an authenticated call to PayPal that forged deliveries could otherwise
   * trigger at will); beyond it a delivery whose certificate cannot be loaded gets 503 and PayPal retries later.
   * Default: 10 per minute, 10 at once.
   */
  postbackBudget?: Pick<TokenBucket, 'tryTake'>;
  /** How long a cert URL whose certificate could not be loaded is not tried again (default 5 minutes). */
  certFailureTtlMs?: number;
}

export interface PayPalVerifier {
  /**
   * Resolves if the delivery is authentic; rejects with WebhookSignatureError (401) or
   * VerificationUnavailableError (503).
   */
  verify(input: PayPalWebhookInput): Promise<void>;
}

const DEFAULT_POSTBACKS_PER_MINUTE = 10;

/**
 * Offline verification (notes §1.3): headers → cert URL allowlist → certificate (cached) → validity, CN
 * and chain → RSA signature over `id|time|webhookId|crc32`. The postback fallback covers only an
 * unobtainable certificate, within its budget. A forged delivery therefore costs at most one unauthenticated
 * certificate GET per made-up cert URL and TTL, and no authenticated call beyond the budget.
 */
export function createPayPalVerifier(deps: PayPalVerifierDeps): PayPalVerifier {
  const { mode, webhookId, fetchCert, trustAnchors, intermediates = [], now = () => new Date(), postback } = deps;
  if (webhookId.trim() === '') throw new Error('PayPal verifier needs the configured webhook id');
  if (trustAnchors.length === 0) throw new Error('PayPal verifier needs at least one trust anchor');
  const nowMs = () => now().getTime();
  const cache = createCertificateCache<X509Certificate[]>({
    now: nowMs,
    expiresAt: ([leaf]) => (leaf ? new Date(leaf.validTo).getTime() : 0),
    failureTtlMs: deps.certFailureTtlMs,
  });
  const postbackBudget = deps.postbackBudget ?? createTokenBucket(DEFAULT_POSTBACKS_PER_MINUTE / 60, nowMs, 10);

  const viaPostback = async (input: PayPalWebhookInput, cause: unknown): Promise<void> => {
    if (!postback)
      throw new VerificationUnavailableError('signing certificate unavailable and no postback configured', { cause });
    if (!postbackBudget.tryTake()) {
      throw new VerificationUnavailableError('signing certificate unavailable and the postback budget is spent', {
        cause,
        refusal: 'postback_rate_limited',
      });
    }
    let accepted: boolean;
    try {
      accepted = await postback.verify(input);
    } catch (err) {
      if (err instanceof WebhookSignatureError || err instanceof VerificationUnavailableError) throw err;
      throw new VerificationUnavailableError('postback failed', { cause: err });
    }
    if (!accepted) {
      throw new WebhookSignatureError('PayPal postback did not confirm the delivery (FAILURE)', {
        refusal: 'postback_failure',
      });
    }
  };

  return {
    async verify(input) {
      const transmission = readPayPalTransmission(input.headers);
      const certUrl = parsePayPalCertUrl(transmission.certUrl, mode);
      let bundle: X509Certificate[];
      try {
        bundle = await cache.get(transmission.certUrl, async () => parseCertificateBundle(await fetchCert(certUrl)));
      } catch (err) {
        // PayPal's own certificate host says there is no such certificate: a made-up URL, so no postback.
        if (err instanceof CertificateFetchError && err.missing) {
          throw new WebhookSignatureError(`PayPal has no certificate at paypal-cert-url (${err.message})`, {
            cause: err,
            refusal: 'cert_not_found',
          });
        }
        return viaPostback(input, err);
      }
      const leaf = assertTrustedSigningCertificate(bundle, { mode, trustAnchors, intermediates, now: now() });
      const message = paypalSignedMessage(
        transmission.transmissionId,
        transmission.transmissionTime,
        webhookId,
        input.rawBody,
      );
      if (!verifyPayPalSignature(leaf, message, transmission.transmissionSig)) {
        throw new WebhookSignatureError('signature does not match');
      }
    },
  };
}
