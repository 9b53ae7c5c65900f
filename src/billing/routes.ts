import { Router } from 'express';
import { createUserStore } from '../identity';
import type { FeatureApiRuntime, FeatureRoutes } from '../platform/features/feature-runtime';
import { createWebhookEventStore } from '../platform/webhooks/webhook-events-store';
import { createBillingRouter } from './billing-routes';
import type { BillingConfig } from './config';
import { createCreditedPaymentStore } from './credited-payments-store';
import { createCreditsRouter } from './credits-routes';
import { createCreditStore } from './credits-store';
import { creditsGranted } from './metrics/credits-granted';
import { paypalDeliveriesRefused } from './metrics/paypal-deliveries-refused';
import type { BillingOverrides } from './overrides';
import { createPackagesRouter } from './packages-routes';
import { createPackageStore } from './packages-store';
import { createPayFastCheckoutStore } from './payfast/payfast-checkouts-store';
import { createPayFastRefundRecordStore } from './payfast/payfast-refund-records-store';
import { createPayFastRefundsRouter } from './payfast/payfast-refunds-routes';
import { createPayFastWebhookRouter } from './payfast/payfast-webhook-route';
import { createPayFastRefundRecorder } from './payfast/record-payfast-refund';
import { createPayFastSourceCheck } from './payfast/source-address';
import { configuredPayPalVerifier } from './paypal/configured-verifier';
import { createPayPalWebhookRouter } from './paypal/paypal-webhook-route';
import { createSubscriptionStore } from './subscriptions-store';

/**
 * Billing's routes over the api's runtime: the PayPal and PayFast webhooks (raw bodies, before the JSON parser), the
 * public credit packages, and under /api/v1 the balance and admin grants, checkouts and subscriptions, and the admin's
 * PayFast refunds. The webhooks only verify and start one workflow per event; the worker checks each delivery again.
 */
export function billingRoutes(runtime: FeatureApiRuntime): FeatureRoutes {
  const config = runtime.config as BillingConfig;
  const overrides = runtime.overrides as BillingOverrides;
  const { pool, log } = runtime;
  const webhookEvents = createWebhookEventStore(pool);
  const packages = createPackageStore(pool);
  const subscriptions = createSubscriptionStore(pool);
  // On the process's registry (the api's /metrics), registered once whoever asks first.
  const refused = paypalDeliveriesRefused.register(runtime.metrics);
  const granted = creditsGranted.register(runtime.metrics);

  const webhooks = Router();
  webhooks.use(
    createPayPalWebhookRouter({
      paypalVerifier: configuredPayPalVerifier(config, overrides.paypalVerifier),
      startEventWorkflow: runtime.startEventWorkflow,
      webhookEvents,
      unknownSubscriptionRetryMs: config.PAYPAL_UNKNOWN_SUBSCRIPTION_RETRY_MS,
      log,
      metrics: { paypalDeliveryRefused: (reason) => refused.inc({ reason }) },
    }),
  );
  webhooks.use(
    createPayFastWebhookRouter({
      passphrase: config.PAYFAST_MERCHANT_PASSPHRASE,
      merchantId: config.PAYFAST_MERCHANT_ID,
      // PayFast's sender check (PAYFAST_VERIFY_SOURCE): req.ip against its published ranges and hosts.
      isPayFastSource:
        overrides.isPayFastSource ??
        (config.PAYFAST_VERIFY_SOURCE ? createPayFastSourceCheck({ mode: config.PAYFAST_MODE }) : undefined),
      startEventWorkflow: runtime.startEventWorkflow,
      webhookEvents,
      log,
    }),
  );

  const v1 = Router();
  v1.use(
    createCreditsRouter({
      credits: createCreditStore(pool),
      users: createUserStore(pool),
      metrics: {
        creditsGranted(source, amount) {
          if (amount > 0) granted.inc({ source }, amount);
        },
      },
    }),
  );
  v1.use(createBillingRouter({ packages, payfastCheckouts: createPayFastCheckoutStore(pool), subscriptions, config }));
  v1.use(
    createPayFastRefundsRouter({
      creditedPayments: createCreditedPaymentStore(pool),
      payfastRefundRecords: createPayFastRefundRecordStore(pool),
      recordPayFastRefund: createPayFastRefundRecorder({
        temporal: runtime.temporal,
        taskQueue: runtime.taskQueue,
        waitMs: config.PAYFAST_REFUND_WAIT_MS,
      }),
      log,
    }),
  );

  return { webhooks, public: createPackagesRouter({ packages }), v1 };
}
