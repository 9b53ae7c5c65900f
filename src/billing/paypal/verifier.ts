import type { X509Certificate } from 'node:crypto';
import { createCertificateCache } from './certificate-cache';
import { assertTrustedSigningCertificate, parseCertificateBundle } from './certificates';
import { parsePayPalCertUrl } from './cert-url';
import { VerificationUnavailableError, WebhookSignatureError } from './errors';
import type { PayPalPostbackVerifier } from './postback';
import {
  paypalSignedMessage,
  readPayPalTransmission,
  verifyPayPalSignature,
  type PayPalWebhookInput,
} from './signature';

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
}

export interface PayPalVerifier {
  /**
   * Resolves if the delivery is authentic; rejects with WebhookSignatureError (401) or
   * VerificationUnavailableError (503).
   */
  verify(input: PayPalWebhookInput): Promise<void>;
}

/**
 * Offline verification (notes §1.3): headers → cert URL allowlist → certificate (cached) → validity, CN
 * and chain → RSA signature over `id|time|webhookId|crc32`. The postback fallback covers only an
 * unobtainable certificate.
 */
export function createPayPalVerifier(deps: PayPalVerifierDeps): PayPalVerifier {
  const { mode, webhookId, fetchCert, trustAnchors, intermediates = [], now = () => new Date(), postback } = deps;
  if (webhookId.trim() === '') throw new Error('PayPal verifier needs the configured webhook id');
  if (trustAnchors.length === 0) throw new Error('PayPal verifier needs at least one trust anchor');
  const cache = createCertificateCache<X509Certificate[]>({
    now: () => now().getTime(),
    expiresAt: ([leaf]) => (leaf ? new Date(leaf.validTo).getTime() : 0),
  });

  const viaPostback = async (input: PayPalWebhookInput, cause: unknown): Promise<void> => {
    if (!postback)
      throw new VerificationUnavailableError('signing certificate unavailable and no postback configured', { cause });
    let accepted: boolean;
    try {
      accepted = await postback.verify(input);
    } catch (err) {
      if (err instanceof WebhookSignatureError || err instanceof VerificationUnavailableError) throw err;
      throw new VerificationUnavailableError('postback failed', { cause: err });
    }
    if (!accepted) throw new WebhookSignatureError('PayPal postback did not confirm the delivery (FAILURE)');
  };

  return {
    async verify(input) {
      const transmission = readPayPalTransmission(input.headers);
      const certUrl = parsePayPalCertUrl(transmission.certUrl, mode);
      let bundle: X509Certificate[];
      try {
        bundle = await cache.get(transmission.certUrl, async () => parseCertificateBundle(await fetchCert(certUrl)));
      } catch (err) {
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
