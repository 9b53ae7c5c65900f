import { accountSecurity } from '../../identity';
import { errorResponse, flatError, ref } from '../../platform/openapi/error-shapes';
import { jsonBody, ok } from '../../platform/openapi/json-content';
import type { Paths } from '../../platform/openapi/json-schema';
import type { OperationContext } from '../../platform/openapi/operation-context';
import { balanceResponse, grantBody, grantResponse } from '../credits-routes';
import { BILLING_ERROR_EXAMPLES, BILLING_EXAMPLES } from './examples';

const TAG = 'Credits';

/** The credit ledger's routes: admin grants and the own balance. */
export function creditsOperations({ components }: OperationContext): Paths {
  return {
    '/api/v1/credits/grant': {
      post: {
        operationId: 'grantCredits',
        tags: [TAG],
        summary: 'Grant credits to a user (admin only)',
        description:
          'Through the same stored function as payments. With idempotencyKey a retry grants once (`duplicate: ' +
          'true`); reusing a key for a different grant is 409. `userId` is a Clerk user id or an internal UUID.',
        requestBody: jsonBody(components.request('GrantRequest', grantBody), BILLING_EXAMPLES.grantRequest),
        responses: {
          200: ok(
            'Granted (or already granted under this idempotencyKey)',
            components.response('GrantResult', grantResponse),
            BILLING_EXAMPLES.grant,
          ),
          400: ref('InvalidBody'),
          401: ref('AuthenticationRequired'),
          403: ref('AdminRequired'),
          404: ref('NotFound'),
          409: errorResponse(
            'idempotencyKey was already used for a different grant',
            flatError(['IDEMPOTENCY_KEY_REUSED']),
            BILLING_ERROR_EXAMPLES.idempotencyKeyReused,
          ),
          413: ref('PayloadTooLarge'),
          415: ref('UnsupportedMediaType'),
        },
        security: accountSecurity('billing'),
      },
    },
    '/api/v1/credits/balance': {
      get: {
        operationId: 'getCreditBalance',
        tags: [TAG],
        summary: 'Own credit balance',
        description: '`reserved` is held by queued jobs; `available` = balance − reserved.',
        responses: {
          200: ok('The balance', components.response('CreditBalance', balanceResponse), BILLING_EXAMPLES.balance),
          401: ref('AuthenticationRequired'),
        },
        security: accountSecurity('read'),
      },
    },
  };
}
