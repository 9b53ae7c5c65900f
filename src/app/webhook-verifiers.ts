import type { Config } from './config';
import { createClerkVerifier, type ClerkVerifier } from '../identity/clerk-webhook-verifier';
import { createPayFastSourceCheck } from '../billing/payfast/source-address';
import { defaultTrustAnchors, fetchPayPalCertificate, loadPinnedIntermediates } from '../billing/paypal/certificates';
import { createPayPalPostbackVerifier, paypalApiBaseUrl } from '../billing/paypal/postback';
import { createPayPalApiClient } from '../billing/paypal/api-client';
import { createPayPalEventLookup, type PayPalEventLookup } from '../billing/paypal/event-lookup';
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
type PayPalVerifierConfig = Pick<
  VerifierConfig,
  | 'PAYPAL_MODE'
  | 'PAYPAL_WEBHOOK_ID'
  | 'PAYPAL_CLIENT_ID'
  | 'PAYPAL_CLIENT_SECRET'
  | 'PAYPAL_CERT_FAILURE_TTL_MS'
  | 'PAYPAL_POSTBACKS_PER_MINUTE'
>;

/** What tests (and only tests) replace: built verifiers with their own trust anchors, fetchers and clocks. */
export interface WebhookVerifierOverrides {
  paypalVerifier?: PayPalVerifier;
  /** PayPal's copy of an event by id, for the worker's check of workflows started without their delivery. */
  paypalEventLookup?: PayPalEventLookup;
  verifyClerk?: ClerkVerifier;
  isPayFastSource?: (ip: string | undefined) => Promise<boolean>;
}

/** The one construction of the PayPal verifier, for the api's route and the worker's re-check alike. */
function buildPayPalVerifier(config: PayPalVerifierConfig, override?: PayPalVerifier): PayPalVerifier | undefined {
  if (override) return override;
  const webhookId = config.PAYPAL_WEBHOOK_ID;
  if (!webhookId) return undefined;
  return createPayPalVerifier({
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
  });
}

/**
 * The production verifiers from config: PayPal offline verification (certificates fetched over HTTPS
 * from PayPal's hosts only, chained to the system roots through the pinned intermediates) with the
 * verify endpoint as fallback when credentials are set; Clerk's Svix check; PayFast's sender check.
 * A route whose secret is missing gets no verifier and answers 503.
 */
export function buildWebhookVerifiers(config: VerifierConfig, overrides: WebhookVerifierOverrides = {}) {
  const verifyClerk =
    overrides.verifyClerk ??
    (config.CLERK_WEBHOOK_SECRET ? createClerkVerifier({ secret: config.CLERK_WEBHOOK_SECRET }) : undefined);
  const isPayFastSource =
    overrides.isPayFastSource ??
    (config.PAYFAST_VERIFY_SOURCE ? createPayFastSourceCheck({ mode: config.PAYFAST_MODE }) : undefined);
  return {
    paypalVerifier: buildPayPalVerifier(config, overrides.paypalVerifier),
    verifyClerk,
    payfast: {
      passphrase: config.PAYFAST_MERCHANT_PASSPHRASE,
      merchantId: config.PAYFAST_MERCHANT_ID,
      isPayFastSource,
    },
  };
}

/**
 * What the worker checks a provider workflow's input with, from its own config (PayFast's ITN check reads the
 * passphrase itself): the PayPal verifier the api uses (same construction, same test override), PayPal's event lookup
 * for workflows started without their delivery (needs the API credentials), and the Clerk signature over the signed
 * bytes without the 5-minute window (freshness is the api's check; the worker must accept a retry an hour later).
 */
export function buildWorkerWebhookChecks(
  config: PayPalVerifierConfig & Pick<VerifierConfig, 'CLERK_WEBHOOK_SECRET'>,
  overrides: WebhookVerifierOverrides = {},
) {
  return {
    paypalVerifier: buildPayPalVerifier(config, overrides.paypalVerifier),
    paypalEventLookup:
      overrides.paypalEventLookup ??
      (config.PAYPAL_CLIENT_ID && config.PAYPAL_CLIENT_SECRET
        ? createPayPalEventLookup(
            createPayPalApiClient({
              baseUrl: paypalApiBaseUrl(config.PAYPAL_MODE),
              clientId: config.PAYPAL_CLIENT_ID,
              clientSecret: config.PAYPAL_CLIENT_SECRET,
            }),
          )
        : undefined),
    clerkSignatures: config.CLERK_WEBHOOK_SECRET
      ? createClerkVerifier({ secret: config.CLERK_WEBHOOK_SECRET, maxAgeMs: null })
      : undefined,
  };
}
