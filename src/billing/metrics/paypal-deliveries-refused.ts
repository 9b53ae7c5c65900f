import { defineCounter } from '../../platform/metrics/metric-definition';

/**
 * Counted by the api for every PayPal delivery its verifier refused (401 or 503), by why (PayPalRefusalReason in
 * src/billing/paypal/errors.ts). A forgery campaign shows up here, and how much of it reached PayPal's postback.
 */
export const paypalDeliveriesRefused = defineCounter({
  name: 'chainscreen_paypal_deliveries_refused_total',
  help:
    'PayPal webhook deliveries refused by verification, by reason: headers, cert_url, cert_not_found, certificate, ' +
    'signature, postback_failure (401); postback_rate_limited, unavailable (503)',
  labelNames: ['reason'],
});
