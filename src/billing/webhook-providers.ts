import type { WebhookProviderDeclaration } from '../platform/webhooks/webhook-provider';

/** PayPal's subscription, sale, refund and dispute events: the route's path and the provider they are kept under. */
export const PAYPAL_WEBHOOK = {
  provider: 'paypal',
  path: '/api/v1/billing/paypal/webhook',
} as const satisfies WebhookProviderDeclaration;

/** PayFast's ITNs (payments), and the refunds recorded against them under the same provider. */
export const PAYFAST_WEBHOOK = {
  provider: 'payfast',
  path: '/api/v1/billing/payfast/webhook',
} as const satisfies WebhookProviderDeclaration;

/** The webhooks billing serves (billingModule.webhookProviders). */
export const BILLING_WEBHOOK_PROVIDERS: readonly WebhookProviderDeclaration[] = [PAYPAL_WEBHOOK, PAYFAST_WEBHOOK];
