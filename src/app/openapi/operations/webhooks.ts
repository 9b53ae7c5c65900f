import { activityRecordBodySchema } from '../../../history/activity-record-schema';
import { activityRecordedResponse } from '../../../history/activity-webhook-route';
import { clerkEventBody, webhookAcceptedResponse } from '../../../identity/clerk-webhook-route';
import { payfastItnBody } from '../../../billing/payfast/payfast-webhook-route';
import { paypalAcceptedResponse, paypalEventBody } from '../../../billing/paypal/paypal-webhook-route';
import { errorResponse, flatError, ref } from '../error-shapes';
import { ERROR_EXAMPLES, EXAMPLES } from '../examples';
import type { ParameterObject, Paths, ResponseObject } from '../json-schema';
import { only, PUBLIC } from '../security';
import { jsonBody, jsonContent, ok, type OperationContext } from './context';

const TAG = 'Webhooks';

const header = (
  name: string,
  description: string,
  schema: Record<string, unknown> = { type: 'string' },
): ParameterObject => ({ name, in: 'header', required: true, description, schema });

export function webhookOperations({ components }: OperationContext): Paths {
  const activityError = { $ref: '#/components/schemas/ActivityWebhookError' };
  const activityErrorResponse = (description: string, example: unknown): ResponseObject => ({
    description,
    content: jsonContent(activityError, example),
  });
  const notConfigured = ref('WebhookNotConfigured');
  const accepted = components.response('WebhookAccepted', webhookAcceptedResponse);

  return {
    '/api/webhook/activity': {
      post: {
        operationId: 'recordActivity',
        tags: [TAG],
        summary: 'Record an activity (spec 4.5)',
        description:
          'From another service of the platform: one history row per (userId, requestId); ' +
          "a repeat answers 201 with the first row's id. Validated in order: activityType, userId, " +
          'the fields the type requires (kyt: blockchain + transactionHash, kya: blockchain + address, kye: ' +
          'entityId), then every format. A record for a user not known yet is kept and attached when the user ' +
          'appears. The body is read as JSON whatever its Content-Type, up to 1 MB.',
        requestBody: jsonBody(
          components.request('ActivityRecordRequest', activityRecordBodySchema),
          EXAMPLES.activityWebhookRequest,
        ),
        responses: {
          201: ok(
            'Recorded (or recorded before under this requestId)',
            components.response('ActivityRecorded', activityRecordedResponse),
            EXAMPLES.activityRecorded,
          ),
          400: activityErrorResponse(
            'A field is missing or invalid; `field` names it (e.g. `Invalid activityType. Must be one of: kyt, ' +
              'kya, kye`, `userId is required`)',
            EXAMPLES.activityWebhookInvalid,
          ),
          401: ref('ActivityWebhookUnauthorized'),
          413: activityErrorResponse('Over 1 MB', { error: 'Request body too large (limit 1 MB)' }),
          500: activityErrorResponse('Postgres failed: nothing was stored, retry', {
            error: 'Failed to record activity',
          }),
        },
        security: only('activityWebhookSecret'),
      },
    },
    '/api/webhook/clerk': {
      post: {
        operationId: 'clerkWebhook',
        tags: [TAG],
        summary: 'Clerk user and organization events (Svix-signed)',
        description:
          '`user.created`, `user.updated`, `user.deleted` change the user; `organization.created`, ' +
          "`organization.updated`, `organization.deleted` the organization's account; " +
          '`organizationMembership.created`, `.updated`, `.deleted` its members (one workflow per svix-id: ' +
          'clerk:<svix-id>); other types are acknowledged. The signature covers the raw bytes; a bad, ' +
          'missing or more than 5-minute-old signature is 401. The Standard Webhooks names (webhook-id, ' +
          'webhook-timestamp, webhook-signature) are read too.',
        parameters: [
          header('svix-id', 'The message id (the same on every retry)'),
          header('svix-timestamp', 'Unix seconds', { type: 'string', pattern: '^\\d{1,12}$' }),
        ],
        requestBody: jsonBody(components.request('ClerkEvent', clerkEventBody)),
        responses: {
          200: ok('Accepted', accepted, EXAMPLES.webhookAccepted),
          400: errorResponse(
            'Verified but not storable: text with U+0000 or an unpaired surrogate, ' +
              'a key leading to a prototype (`__proto__`), or nesting deeper than 64 levels',
            flatError(['INVALID_EVENT']),
          ),
          401: ref('SignatureInvalid'),
          413: ref('PayloadTooLarge'),
          415: ref('UnsupportedMediaType'),
          503: notConfigured,
        },
        security: only('svixSignature'),
      },
    },
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
          header('PAYPAL-TRANSMISSION-ID', 'The delivery id'),
          header('PAYPAL-TRANSMISSION-TIME', 'When PayPal signed it'),
          header('PAYPAL-CERT-URL', "The signing certificate (PayPal's own host, https)"),
          header('PAYPAL-AUTH-ALGO', 'The signature algorithm', { type: 'string', const: 'SHA256withRSA' }),
        ],
        requestBody: jsonBody(components.request('PayPalEvent', paypalEventBody)),
        responses: {
          200: ok(
            'Accepted (`duplicate`), or recorded and not acted on (`handled: false`)',
            components.response('PayPalAccepted', paypalAcceptedResponse),
            EXAMPLES.webhookAccepted,
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
            ERROR_EXAMPLES.invalidItn,
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
