import { errorResponse, flatError, ref } from '../../platform/openapi/error-shapes';
import { jsonBody, ok } from '../../platform/openapi/json-content';
import { headerParameter, type Paths } from '../../platform/openapi/json-schema';
import type { OperationContext } from '../../platform/openapi/operation-context';
import { only } from '../../platform/openapi/security';
import { clerkEventBody, webhookAcceptedResponse } from '../clerk-webhook-route';
import { IDENTITY_EXAMPLES } from './examples';

const TAG = 'Webhooks';

/** Clerk's Svix-signed user and organization events. */
export function clerkWebhookOperations({ components }: OperationContext): Paths {
  const notConfigured = ref('WebhookNotConfigured');
  const accepted = components.response('WebhookAccepted', webhookAcceptedResponse);
  return {
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
          headerParameter('svix-id', 'The message id (the same on every retry)'),
          headerParameter('svix-timestamp', 'Unix seconds', { type: 'string', pattern: '^\\d{1,12}$' }),
        ],
        requestBody: jsonBody(components.request('ClerkEvent', clerkEventBody)),
        responses: {
          200: ok('Accepted', accepted, IDENTITY_EXAMPLES.webhookAccepted),
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
  };
}
