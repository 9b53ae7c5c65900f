import { accountSecurity } from '../../identity';
import { errorResponse, flatError, ref } from '../../platform/openapi/error-shapes';
import { jsonBody, ok } from '../../platform/openapi/json-content';
import type { Paths } from '../../platform/openapi/json-schema';
import type { OperationContext } from '../../platform/openapi/operation-context';
import { PUBLIC } from '../../platform/openapi/security';
import { checkoutBody, checkoutResponse, subscriptionListResponse } from '../billing-routes';
import { packageListResponse, packageSchema } from '../packages-routes';
import {
  payfastRefundBody,
  payfastRefundPendingResponse,
  payfastRefundResponse,
} from '../payfast/payfast-refunds-routes';
import { BILLING_ERROR_EXAMPLES, BILLING_EXAMPLES } from './examples';

const TAG = 'Billing';

/** What buying credits takes: the packages, a PayFast checkout, refunds made at PayFast, PayPal subscriptions. */
export function billingOperations({ components }: OperationContext): Paths {
  components.response('CreditPackage', packageSchema);
  return {
    '/api/v1/credits/packages': {
      get: {
        operationId: 'listCreditPackages',
        tags: [TAG],
        summary: 'Credit packages and their prices (public)',
        description:
          'Packages (`basic`, `pro`, `pro-annual`, `top-up-250`) with their PayPal plan / PayFast prices, ' +
          'for a pricing page before sign-in.',
        responses: {
          200: ok(
            'The active packages',
            components.response('CreditPackageList', packageListResponse),
            BILLING_EXAMPLES.packages,
          ),
        },
        security: PUBLIC,
      },
    },
    '/api/v1/billing/payfast/checkout': {
      post: {
        operationId: 'startPayFastCheckout',
        tags: [TAG],
        summary: 'Start a PayFast checkout',
        description:
          'Records the checkout (m_payment_id → user, package, exact amount) ' +
          'and answers the signed form (with `m_payment_id`, `custom_str1`) the client posts to PayFast; the ' +
          'ITN is later credited only against this record.',
        requestBody: jsonBody(components.request('CheckoutRequest', checkoutBody), { packageId: 'basic' }),
        responses: {
          201: ok('The signed form', components.response('CheckoutForm', checkoutResponse), BILLING_EXAMPLES.checkout),
          400: ref('InvalidBody'),
          401: ref('AuthenticationRequired'),
          404: errorResponse('No active package with that id is sold through PayFast', flatError(['NOT_FOUND'])),
          413: ref('PayloadTooLarge'),
          415: ref('UnsupportedMediaType'),
          503: errorResponse(
            'PayFast checkout is not configured on this deployment',
            flatError(['BILLING_NOT_CONFIGURED']),
            BILLING_ERROR_EXAMPLES.billingNotConfigured,
          ),
        },
        security: accountSecurity('billing'),
      },
    },
    '/api/v1/billing/payfast/refunds': {
      post: {
        operationId: 'recordPayFastRefund',
        tags: [TAG],
        summary: 'Record a refund made at PayFast (admin only)',
        description:
          "PayFast sends no ITN for refunds: an admin records it here, and the payment's credits are taken back in " +
          'proportion to the money returned, once per refundId (down to zero; the spent rest becomes debt that ' +
          'blocks jobs with 402 CREDITS_IN_DEBT until a payment repays it). Without amount, ' +
          'everything not refunded yet. A refundId names one refund: recorded once for another payment or amount ' +
          'it is 409. The answer waits up to PAYFAST_REFUND_WAIT_MS for the refund to be applied, else 202 ' +
          '`pending` (it is still applied once; the same request again reads the outcome).',
        requestBody: jsonBody(components.request('PayFastRefundRequest', payfastRefundBody), {
          pfPaymentId: '1089250',
          refundId: 'rf-2026-0001',
          amount: '99.00',
          reason: 'customer request',
        }),
        responses: {
          200: ok(
            'Recorded (or recorded before under this refundId: `duplicate`)',
            components.response('PayFastRefundResult', payfastRefundResponse),
          ),
          202: ok(
            'Recorded, not applied yet: submit the same request again later for the outcome',
            components.response('PayFastRefundPending', payfastRefundPendingResponse),
          ),
          400: ref('InvalidBody'),
          401: ref('AuthenticationRequired'),
          403: ref('AdminRequired'),
          404: errorResponse('No credited PayFast payment with that pf_payment_id', flatError(['NOT_FOUND'])),
          409: errorResponse(
            'This refundId is already recorded for another payment or amount: nothing was taken back',
            flatError(['REFUND_ID_CONFLICT']),
          ),
          413: ref('PayloadTooLarge'),
          415: ref('UnsupportedMediaType'),
          503: errorResponse(
            'The refund could not be recorded now; nothing was taken back, retry with the same refundId',
            flatError(['SERVICE_UNAVAILABLE']),
          ),
        },
        security: accountSecurity('billing'),
      },
    },
    '/api/v1/billing/subscriptions': {
      get: {
        operationId: 'listSubscriptions',
        tags: [TAG],
        summary: 'Own PayPal subscriptions',
        description:
          'Status, plan, package and `paymentFailed` (the last payment failed: a request lacking credits then gets ' +
          '402 SUBSCRIPTION_PAYMENT_FAILED).',
        responses: {
          200: ok(
            'The subscriptions',
            components.response('SubscriptionList', subscriptionListResponse),
            BILLING_EXAMPLES.subscriptions,
          ),
          401: ref('AuthenticationRequired'),
        },
        security: accountSecurity('read'),
      },
    },
  };
}
