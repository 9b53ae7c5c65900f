import { errorResponse, flatError, ref } from '../../platform/openapi/error-shapes';
import { jsonBody, ok } from '../../platform/openapi/json-content';
import { headerParameter, type Paths } from '../../platform/openapi/json-schema';
import type { OperationContext } from '../../platform/openapi/operation-context';
import { only, PUBLIC } from '../../platform/openapi/security';
import { payfastItnBody } from '../payfast/payfast-webhook-route';
import { paypalAcceptedResponse, paypalEventBody } from '../paypal/paypal-webhook-route';
import { BILLING_ERROR_EXAMPLES, BILLING_EXAMPLES } from './examples';

const TAG = 'Webhooks';

/** The payment providers' deliveries: PayPal's signed events and PayFast's ITNs. */
export function paymentWebhookOperations({ components }: OperationContext): Paths {
  const notConfigured = ref('WebhookNotConfigured');
  return {
    '/api/v1/billing/paypal/webhook': {
      post: {
        operationId: 'paypalWebhook',
        tags: [TAG],
        summary: 'PayPal subscription, sale, refund and dispute events (PayPal-signed)',
        description:
          "Signature first (401 when forged, 503 when it cannot be checked now), then the event's shape (400, e.g. " +
          'a subscription without custom_id, a dispute without dispute_id), then one workflow per event id ' +
          '(paypal:<event id>). A custom_id naming no existing user attaches nothing (recorded as rejected). ' +
          'Event types not acted on are recorded and acknowledged.',
        parameters: [
          headerParameter('PAYPAL-TRANSMISSION-ID', 'The delivery id'),
          headerParameter('PAYPAL-TRANSMISSION-TIME', 'When PayPal signed it'),
          headerParameter('PAYPAL-CERT-URL', "The signing certificate (PayPal's own host, https)"),
          headerParameter('PAYPAL-AUTH-ALGO', 'The signature algorithm', { type: 'string', const: 'SHA256withRSA' }),
        ],
        requestBody: jsonBody(components.request('PayPalEvent', paypalEventBody)),
        responses: {
          200: ok(
            'Accepted (`duplicate`), or recorded and not acted on (`handled: false`)',
            components.response('PayPalAccepted', paypalAcceptedResponse),
            BILLING_EXAMPLES.webhookAccepted,
          ),
          400: errorResponse(
            'Verified but not usable: not JSON, not an event, a subscription without custom_id, ' +
              'or not storable (U+0000, a `__proto__` key, nesting deeper than 64)',
            flatError(['INVALID_EVENT', 'MISSING_CUSTOM_ID']),
          ),
          401: ref('SignatureInvalid'),
          413: ref('PayloadTooLarge'),
          415: ref('UnsupportedMediaType'),
          503: errorResponse(
            'Not configured (PAYPAL_WEBHOOK_ID unset), the signature cannot be checked right now, ' +
              'or the event could not be handed to Temporal: PayPal retries',
            flatError(['WEBHOOK_NOT_CONFIGURED', 'VERIFICATION_UNAVAILABLE', 'SERVICE_UNAVAILABLE']),
          ),
        },
        security: only('paypalSignature'),
      },
    },
    '/api/v1/billing/payfast/webhook': {
      post: {
        operationId: 'payfastWebhook',
        tags: [TAG],
        summary: 'PayFast ITN (form-encoded, MD5-signed in the form)',
        description:
          'The `signature` form field is the MD5 of the other fields (URL-encoded, in the order sent) ' +
          'with the passphrase: 401 when it does not match; 403 when PAYFAST_VERIFY_SOURCE is on and the sender ' +
          'is not PayFast; 400 for another merchant or a malformed ITN. ' +
          'Then one workflow per payment (payfast:<pf_payment_id>); the acknowledgement is a plain `200 OK`.',
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': { schema: components.request('PayFastItn', payfastItnBody) },
          },
        },
        responses: {
          200: { description: 'Acknowledged', content: { 'text/plain': { schema: { type: 'string', const: 'OK' } } } },
          400: errorResponse(
            'Malformed ITN (encoding, repeated or missing field) or another merchant',
            flatError(['INVALID_ITN', 'MERCHANT_MISMATCH']),
            BILLING_ERROR_EXAMPLES.invalidItn,
          ),
          401: ref('SignatureInvalid'),
          403: errorResponse('Not from a PayFast address (PAYFAST_VERIFY_SOURCE)', flatError(['FORBIDDEN_SOURCE'])),
          413: ref('PayloadTooLarge'),
          415: ref('UnsupportedMediaType'),
          503: notConfigured,
        },
        security: PUBLIC,
      },
    },
  };
}
