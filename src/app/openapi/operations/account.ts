import {
  apiKeyListResponse,
  apiKeyRecordSchema,
  apiKeyResponse,
  createApiKeyBody,
  createdApiKeyResponse,
  meResponse,
  rateLimitBody,
} from '../../../identity/api-keys-routes';
import { balanceResponse, grantBody, grantResponse } from '../../../billing/credits-routes';
import { errorResponse, flatError, ref } from '../error-shapes';
import { ERROR_EXAMPLES, EXAMPLES } from '../examples';
import { pathParameter, type Paths } from '../json-schema';
import { accountSecurity } from '../security';
import { jsonBody, ok, type OperationContext } from './context';

const CREDITS = 'Credits';
const KEYS = 'API keys';
const keyId = pathParameter('id', 'The key id (anything else is 404)', { type: 'string', format: 'uuid' });

export function accountOperations({ components }: OperationContext): Paths {
  components.response('ApiKey', apiKeyRecordSchema);
  return {
    '/api/v1/credits/grant': {
      post: {
        operationId: 'grantCredits',
        tags: [CREDITS],
        summary: 'Grant credits to a user (admin only)',
        description:
          'Through the same stored function as payments. With idempotencyKey a retry grants once (`duplicate: ' +
          'true`); reusing a key for a different grant is 409. `userId` is a Clerk user id or an internal UUID.',
        requestBody: jsonBody(components.request('GrantRequest', grantBody), EXAMPLES.grantRequest),
        responses: {
          200: ok(
            'Granted (or already granted under this idempotencyKey)',
            components.response('GrantResult', grantResponse),
            EXAMPLES.grant,
          ),
          400: ref('InvalidBody'),
          401: ref('AuthenticationRequired'),
          403: ref('AdminRequired'),
          404: ref('NotFound'),
          409: errorResponse(
            'idempotencyKey was already used for a different grant',
            flatError(['IDEMPOTENCY_KEY_REUSED']),
            ERROR_EXAMPLES.idempotencyKeyReused,
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
        tags: [CREDITS],
        summary: 'Own credit balance',
        description: '`reserved` is held by queued jobs; `available` = balance − reserved.',
        responses: {
          200: ok('The balance', components.response('CreditBalance', balanceResponse), EXAMPLES.balance),
          401: ref('AuthenticationRequired'),
        },
        security: accountSecurity('read'),
      },
    },
    '/api/v1/api-keys': {
      post: {
        operationId: 'createApiKey',
        tags: [KEYS],
        summary: 'Create an API key (shown once)',
        description:
          '`scopes` limits what the key may do (read, screening, billing, keys), at most what the calling key ' +
          "may (a wider one is 403 INSUFFICIENT_SCOPE); absent, the new key gets the caller's scopes (a full key " +
          'or a dashboard session: all). An account holds at most MAX_ACTIVE_API_KEYS_PER_ACCOUNT active keys.',
        requestBody: {
          ...jsonBody(components.request('CreateApiKeyRequest', createApiKeyBody), { name: 'ci' }),
          required: false,
        },
        responses: {
          201: ok(
            'Created: `key` is the secret, shown this once',
            components.response('ApiKeyCreated', createdApiKeyResponse),
            EXAMPLES.apiKeyCreated,
          ),
          400: ref('InvalidBody'),
          401: ref('AuthenticationRequired'),
          409: errorResponse(
            'The account already holds MAX_ACTIVE_API_KEYS_PER_ACCOUNT (default 20) active keys: revoke one first',
            flatError(['API_KEY_LIMIT_REACHED']),
            ERROR_EXAMPLES.apiKeyLimitReached,
          ),
          413: ref('PayloadTooLarge'),
          415: ref('UnsupportedMediaType'),
        },
        security: accountSecurity('keys'),
      },
      get: {
        operationId: 'listApiKeys',
        tags: [KEYS],
        summary: 'List own API keys (prefixes only)',
        responses: {
          200: ok(
            'The keys, revoked ones included',
            components.response('ApiKeyList', apiKeyListResponse),
            EXAMPLES.apiKeyList,
          ),
          401: ref('AuthenticationRequired'),
        },
        security: accountSecurity('read'),
      },
    },
    '/api/v1/api-keys/{id}': {
      delete: {
        operationId: 'revokeApiKey',
        tags: [KEYS],
        summary: "Revoke one of the account's API keys",
        description:
          'Revoking twice answers the key with its first revocation time. A team admin revokes any key of the ' +
          'account; another member only the keys they made (403 INSUFFICIENT_TEAM_ROLE for another member’s).',
        parameters: [keyId],
        responses: {
          200: ok('The revoked key', components.response('ApiKeyResult', apiKeyResponse), EXAMPLES.apiKeyRevoked),
          401: ref('AuthenticationRequired'),
          403: ref('TeamRoleRequired'),
          404: ref('NotFound'),
        },
        security: accountSecurity('keys'),
      },
    },
    '/api/v1/api-keys/{id}/rate-limit': {
      put: {
        operationId: 'setApiKeyRateLimit',
        tags: [KEYS],
        summary: "Set a key's market-data tier (admin only)",
        description:
          '`{tier: free|pro}` (60 / 300 requests per minute) or `{tier: enterprise, requestsPerMinute}`; ' +
          "requestsPerMinute is required for enterprise and refused otherwise. Any user's key.",
        parameters: [keyId],
        requestBody: jsonBody(components.request('RateLimitRequest', rateLimitBody), {
          tier: 'enterprise',
          requestsPerMinute: 1200,
        }),
        responses: {
          200: ok(
            'The key with its new rateLimit',
            components.response('ApiKeyResult', apiKeyResponse),
            EXAMPLES.apiKeyRateLimit,
          ),
          400: ref('InvalidBody'),
          401: ref('AuthenticationRequired'),
          403: ref('AdminRequired'),
          404: ref('NotFound'),
          413: ref('PayloadTooLarge'),
          415: ref('UnsupportedMediaType'),
        },
        security: accountSecurity('keys'),
      },
    },
    '/api/v1/me': {
      get: {
        operationId: 'getMe',
        tags: [CREDITS],
        summary: 'Own ids, role and credits',
        responses: {
          200: ok('The caller', components.response('Me', meResponse), EXAMPLES.me),
          401: ref('AuthenticationRequired'),
        },
        security: accountSecurity('read'),
      },
    },
  };
}
