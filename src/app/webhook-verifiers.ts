import type { Config } from './config';
import { createClerkVerifier, type ClerkVerifier } from '../identity/clerk-webhook-verifier';
import { createPayFastSourceCheck } from '../billing/payfast/source-address';
import type { PayPalEventLookup } from '../billing/paypal/event-lookup';
import type { PayPalVerifier } from '../billing/paypal/verifier';
import { configuredPayPalVerifier } from '../billing/paypal/configured-verifier';

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
  /** PayPal's copy of an event by id, for the worker's check of workflows started without their delivery. */
  paypalEventLookup?: PayPalEventLookup;
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
  const verifyClerk =
    overrides.verifyClerk ??
    (config.CLERK_WEBHOOK_SECRET ? createClerkVerifier({ secret: config.CLERK_WEBHOOK_SECRET }) : undefined);
  const isPayFastSource =
    overrides.isPayFastSource ??
    (config.PAYFAST_VERIFY_SOURCE ? createPayFastSourceCheck({ mode: config.PAYFAST_MODE }) : undefined);
  return {
    paypalVerifier: configuredPayPalVerifier(config, overrides.paypalVerifier),
    verifyClerk,
    payfast: {
      passphrase: config.PAYFAST_MERCHANT_PASSPHRASE,
      merchantId: config.PAYFAST_MERCHANT_ID,
      isPayFastSource,
    },
  };
}
