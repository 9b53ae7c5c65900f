import { checkoutBody, checkoutResponse, subscriptionListResponse } from '../../routes/billing';
import { packageListResponse, packageSchema } from '../../routes/packages';
import { errorResponse, flatError, ref } from '../error-shapes';
import { ERROR_EXAMPLES, EXAMPLES } from '../examples';
import type { Paths } from '../json-schema';
import { ACCOUNT_SECURITY, PUBLIC } from '../security';
import { jsonBody, ok, type OperationContext } from './context';

const TAG = 'Billing';

export function billingOperations({ components }: OperationContext): Paths {
  components.response('CreditPackage', packageSchema);
  return {
    '/api/v1/credits/packages': {
      get: {
        operationId: 'listCreditPackages',
        tags: [TAG],
        summary: 'Credit packages and their prices (public)',
        description: 'Packages (`basic`, `pro`, `pro-annual`, `top-up-250`) with their PayPal plan / PayFast prices, for a pricing page before sign-in.',
        responses: { 200: ok('The active packages', components.response('CreditPackageList', packageListResponse), EXAMPLES.packages) },
        security: PUBLIC,
      },
    },
    '/api/v1/billing/payfast/checkout': {
      post: {
        operationId: 'startPayFastCheckout',
        tags: [TAG],
        summary: 'Start a PayFast checkout',
        description:
          'Records the checkout (m_payment_id → user, package, exact amount) and answers the signed form (with `m_payment_id`, `custom_str1`) the client posts to PayFast; the ITN is later credited only against this record.',
        requestBody: jsonBody(components.request('CheckoutRequest', checkoutBody), { packageId: 'basic' }),
        responses: {
          201: ok('The signed form', components.response('CheckoutForm', checkoutResponse), EXAMPLES.checkout),
          400: ref('InvalidBody'),
          401: ref('AuthenticationRequired'),
          404: errorResponse('No active package with that id is sold through PayFast', flatError(['NOT_FOUND'])),
          413: ref('PayloadTooLarge'),
          415: ref('UnsupportedMediaType'),
          503: errorResponse('PayFast checkout is not configured on this deployment', flatError(['BILLING_NOT_CONFIGURED']), ERROR_EXAMPLES.billingNotConfigured),
        },
        security: ACCOUNT_SECURITY,
      },
    },
    '/api/v1/billing/subscriptions': {
      get: {
        operationId: 'listSubscriptions',
        tags: [TAG],
        summary: 'Own PayPal subscriptions',
        description: 'Status, plan, package and `paymentFailed` (the last payment failed: a request lacking credits then gets 402 SUBSCRIPTION_PAYMENT_FAILED).',
        responses: {
          200: ok('The subscriptions', components.response('SubscriptionList', subscriptionListResponse), EXAMPLES.subscriptions),
          401: ref('AuthenticationRequired'),
        },
        security: ACCOUNT_SECURITY,
      },
    },
  };
}
