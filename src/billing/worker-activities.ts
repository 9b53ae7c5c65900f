import type { FeatureRuntime } from '../platform/features/feature-runtime';
import { createWebhookEventStore } from '../platform/webhooks/webhook-events-store';
import { createUserStore } from '../identity';
import { createBillingActivities } from './activities';
import type { BillingConfig } from './config';
import { createCreditStore } from './credits-store';
import { createCreditedPaymentStore } from './credited-payments-store';
import { paymentEventCounter } from './metrics/payment-events';
import type { BillingOverrides } from './overrides';
import { createPackageStore } from './packages-store';
import { createPayFastCheckoutStore } from './payfast/payfast-checkouts-store';
import { createPayFastRefundRecordStore } from './payfast/payfast-refund-records-store';
import { createPayFastServerValidator, payfastValidateUrl } from './payfast/server-validation';
import { configuredPayPalEventLookup, configuredPayPalVerifier } from './paypal/configured-verifier';
import { createSubscriptionStore } from './subscriptions-store';

/**
 * The payment activities over the worker's runtime. A provider workflow is applied only after the worker checks its
 * delivery itself, with its own secrets: PayPal's signature (or PayPal's copy of the event), and a PayFast ITN's
 * signature, merchant and, when PAYFAST_SERVER_VALIDATION is on, PayFast's own confirmation.
 */
export function billingActivities(runtime: FeatureRuntime) {
  const config = runtime.config as BillingConfig;
  const overrides = runtime.overrides as BillingOverrides;
  const { pool } = runtime;
  return createBillingActivities({
    pool,
    users: createUserStore(pool),
    credits: createCreditStore(pool),
    packages: createPackageStore(pool),
    subscriptions: createSubscriptionStore(pool),
    webhookEvents: createWebhookEventStore(pool),
    creditedPayments: createCreditedPaymentStore(pool),
    payfastCheckouts: createPayFastCheckoutStore(pool),
    payfastRefundRecords: createPayFastRefundRecordStore(pool),
    paypalVerifier: configuredPayPalVerifier(config, overrides.paypalVerifier),
    paypalEventLookup: configuredPayPalEventLookup(config, overrides.paypalEventLookup),
    payfastPassphrase: config.PAYFAST_MERCHANT_PASSPHRASE,
    payfastMerchantId: config.PAYFAST_MERCHANT_ID,
    confirmWithPayFast:
      overrides.confirmWithPayFast ??
      (config.PAYFAST_SERVER_VALIDATION
        ? createPayFastServerValidator({ url: payfastValidateUrl(config.PAYFAST_MODE) })
        : undefined),
    metrics: paymentEventCounter(runtime.metrics),
  });
}
