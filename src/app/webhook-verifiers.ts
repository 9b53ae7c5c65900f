import type { Config } from '../platform/config';
import { createClerkVerifier, type ClerkVerifier } from '../identity/clerk-webhook-verifier';
import { createPayFastSourceCheck } from '../billing/payfast/source-address';
import { defaultTrustAnchors, fetchPayPalCertificate, loadPinnedIntermediates } from '../billing/paypal/certificates';
import { createPayPalPostbackVerifier, paypalApiBaseUrl } from '../billing/paypal/postback';
import { createPayPalVerifier, type PayPalVerifier } from '../billing/paypal/verifier';
import { createTokenBucket } from '../platform/http-client/token-bucket';

type VerifierConfig = Pick<
  Config,
  | 'CLERK_WEBHOOK_SECRET'
  | 'PAYPAL_MODE'
  | 'PAYPAL_WEBHOOK_ID'
  | 'PAYPAL_CLIENT_ID'
  | 'PAYPAL_CLIENT_SECRET'
  | 'PAYPAL_CERT_FAILURE_TTL_MS'
  | 'PAYPAL_POSTBACKS_PER_MINUTE'
  | 'PAYFAST_MODE'
  | 'PAYFAST_MERCHANT_ID'
  | 'PAYFAST_MERCHANT_PASSPHRASE'
  | 'PAYFAST_VERIFY_SOURCE'
>;

/** What tests (and only tests) replace: built verifiers with their own trust anchors, fetchers and clocks. */
export interface WebhookVerifierOverrides {
  paypalVerifier?: PayPalVerifier;
  verifyClerk?: ClerkVerifier;
  isPayFastSource?: (ip: string | undefined) => Promise<boolean>;
}

/**
 * The production verifiers from config: PayPal offline verification (certificates fetched over HTTPS
 * from PayPal's hosts only, chained to the system roots through the pinned intermediates) with the
 * verify endpoint as fallback when credentials are set; Clerk's Svix check; PayFast's sender check.
 * A route whose secret is missing gets no verifier and answers 503.
 */
export function buildWebhookVerifiers(config: VerifierConfig, overrides: WebhookVerifierOverrides = {}) {
  const webhookId = config.PAYPAL_WEBHOOK_ID;
  const paypalVerifier =
    overrides.paypalVerifier ??
    (webhookId
      ? createPayPalVerifier({
          mode: config.PAYPAL_MODE,
          webhookId,
          fetchCert: (url) => fetchPayPalCertificate(url),
          trustAnchors: defaultTrustAnchors(),
          intermediates: loadPinnedIntermediates(),
          certFailureTtlMs: config.PAYPAL_CERT_FAILURE_TTL_MS,
          // Per process: a minute's budget at once, then the rate.
          postbackBudget: createTokenBucket(
            config.PAYPAL_POSTBACKS_PER_MINUTE / 60,
            Date.now,
            config.PAYPAL_POSTBACKS_PER_MINUTE,
          ),
          postback:
            config.PAYPAL_CLIENT_ID && config.PAYPAL_CLIENT_SECRET
              ? createPayPalPostbackVerifier({
                  baseUrl: paypalApiBaseUrl(config.PAYPAL_MODE),
                  clientId: config.PAYPAL_CLIENT_ID,
                  clientSecret: config.PAYPAL_CLIENT_SECRET,
                  webhookId,
                })
              : undefined,
        })
      : undefined);
  const verifyClerk =
    overrides.verifyClerk ??
    (config.CLERK_WEBHOOK_SECRET ? createClerkVerifier({ secret: config.CLERK_WEBHOOK_SECRET }) : undefined);
  const isPayFastSource =
    overrides.isPayFastSource ??
    (config.PAYFAST_VERIFY_SOURCE ? createPayFastSourceCheck({ mode: config.PAYFAST_MODE }) : undefined);
  return {
    paypalVerifier,
    verifyClerk,
    payfast: {
      passphrase: config.PAYFAST_MERCHANT_PASSPHRASE,
      merchantId: config.PAYFAST_MERCHANT_ID,
      isPayFastSource,
    },
  };
}
