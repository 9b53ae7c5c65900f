import { createTokenBucket } from '../../platform/http-client/token-bucket';
import type { BillingConfig } from '../config';
import { createPayPalApiClient } from './api-client';
import { defaultTrustAnchors, fetchPayPalCertificate, loadPinnedIntermediates } from './certificates';
import { createPayPalEventLookup, type PayPalEventLookup } from './event-lookup';
import { createPayPalPostbackVerifier, paypalApiBaseUrl } from './postback';
import { createPayPalVerifier, type PayPalVerifier } from './verifier';

type PayPalConfig = Pick<
  BillingConfig,
  | 'PAYPAL_MODE'
  | 'PAYPAL_WEBHOOK_ID'
  | 'PAYPAL_CLIENT_ID'
  | 'PAYPAL_CLIENT_SECRET'
  | 'PAYPAL_CERT_FAILURE_TTL_MS'
  | 'PAYPAL_POSTBACKS_PER_MINUTE'
>;

/**
 * The one construction of the PayPal verifier, for the api's route and the worker's re-check alike: offline
 * verification (certificates fetched over HTTPS from PayPal's hosts only, chained to the system roots through the
 * pinned intermediates), with the verify endpoint as fallback when API credentials are set. None without a webhook
 * id (the route then answers 503). Tests hand in their own (trust anchors, fetcher, clock).
 */
export function configuredPayPalVerifier(config: PayPalConfig, override?: PayPalVerifier): PayPalVerifier | undefined {
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

/** PayPal's copy of an event by id (needs the API credentials), for workflows started without their delivery. */
export function configuredPayPalEventLookup(
  config: PayPalConfig,
  override?: PayPalEventLookup,
): PayPalEventLookup | undefined {
  if (override) return override;
  if (!config.PAYPAL_CLIENT_ID || !config.PAYPAL_CLIENT_SECRET) return undefined;
  return createPayPalEventLookup(
    createPayPalApiClient({
      baseUrl: paypalApiBaseUrl(config.PAYPAL_MODE),
      clientId: config.PAYPAL_CLIENT_ID,
      clientSecret: config.PAYPAL_CLIENT_SECRET,
    }),
  );
}
