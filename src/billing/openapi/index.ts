import type { FeatureOpenApi } from '../../platform/features/feature-openapi';
import { billingOperations } from './billing-operations';
import { creditsOperations } from './credits-operations';
import { paymentWebhookOperations } from './payment-webhook-operations';

/** Billing's operations for the OpenAPI document (src/platform/features/feature-openapi.ts). */
export const billingOpenApi: FeatureOpenApi = {
  operations: [creditsOperations, billingOperations, paymentWebhookOperations],
  tags: [
    { name: 'Credits', description: 'Balance, admin grants, who am I' },
    { name: 'Billing', description: 'Packages, PayFast checkout, PayPal subscriptions' },
  ],
  securitySchemes: {
    paypalSignature: {
      type: 'apiKey',
      in: 'header',
      name: 'PAYPAL-TRANSMISSION-SIG',
      description:
        "PayPal's transmission signature (SHA256withRSA over `<transmission id>|<time>|<webhook id>|<crc32 of the " +
        "body>`), checked with the certificate at PAYPAL-CERT-URL against PayPal's chain; sent with " +
        'PAYPAL-TRANSMISSION-ID, PAYPAL-TRANSMISSION-TIME, PAYPAL-CERT-URL and PAYPAL-AUTH-ALGO',
    },
  },
};
