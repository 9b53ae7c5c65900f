import { errorResponse, flatError, ref } from '../../platform/openapi/error-shapes';
import { jsonBody, ok } from '../../platform/openapi/json-content';
import { pathParameter, type Paths } from '../../platform/openapi/json-schema';
import type { OperationContext } from '../../platform/openapi/operation-context';
import { TIER_REQUESTS_PER_MINUTE } from '../../platform/rate-limit/tiers';
import {
  apiKeyListResponse,
  apiKeyRecordSchema,
  apiKeyResponse,
  createApiKeyBody,
  createdApiKeyResponse,
  meResponse,
  rateLimitBody,
} from '../api-keys-routes';
import { accountSecurity } from './account-security';
import { IDENTITY_ERROR_EXAMPLES, IDENTITY_EXAMPLES } from './examples';

const KEYS = 'API keys';
const keyId = pathParameter('id', 'The key id (anything else is 404)', { type: 'string', format: 'uuid' });

/** The account's API keys, and who the caller is. */
export function apiKeysOperations({ components }: OperationContext): Paths {
  components.response('ApiKey', apiKeyRecordSchema);
  return {
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
            IDENTITY_EXAMPLES.apiKeyCreated,
          ),
          400: ref('InvalidBody'),
          401: ref('AuthenticationRequired'),
          409: errorResponse(
            'The account already holds MAX_ACTIVE_API_KEYS_PER_ACCOUNT (default 20) active keys: revoke one first',
            flatError(['API_KEY_LIMIT_REACHED']),
            IDENTITY_ERROR_EXAMPLES.apiKeyLimitReached,
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
            IDENTITY_EXAMPLES.apiKeyList,
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
          200: ok(
            'The revoked key',
            components.response('ApiKeyResult', apiKeyResponse),
            IDENTITY_EXAMPLES.apiKeyRevoked,
          ),
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
          `\`{tier: free|pro}\` (${TIER_REQUESTS_PER_MINUTE.free} / ${TIER_REQUESTS_PER_MINUTE.pro} requests per ` +
          'minute) or `{tier: enterprise, requestsPerMinute}`; ' +
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
            IDENTITY_EXAMPLES.apiKeyRateLimit,
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
        tags: ['Credits'],
        summary: 'Own ids, role and credits',
        responses: {
          200: ok('The caller', components.response('Me', meResponse), IDENTITY_EXAMPLES.me),
          401: ref('AuthenticationRequired'),
        },
        security: accountSecurity('read'),
      },
    },
  };
}
