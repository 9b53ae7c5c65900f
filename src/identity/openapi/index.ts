import type { FeatureOpenApi } from '../../platform/features/feature-openapi';
import { API_KEY_SCOPES } from '../scopes';
import { apiKeysOperations } from './api-keys-operations';
import { clerkWebhookOperations } from './clerk-webhook-operations';
import { teamsOperations } from './teams-operations';

/** Identity's operations for the OpenAPI document (src/platform/features/feature-openapi.ts). */
export const identityOpenApi: FeatureOpenApi = {
  operations: [apiKeysOperations, teamsOperations, clerkWebhookOperations],
  tags: [
    { name: 'API keys', description: 'Create (shown once, with scopes), list, revoke; admin: market-data tier' },
    { name: 'Teams', description: "The account's members and their roles (admin, analyst, approver)" },
  ],
  securitySchemes: {
    apiKey: {
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
      description:
        'An API key (`cs_live_…`, from POST /api/v1/api-keys or the bootstrap admin key). Each operation names the ' +
        `scope the key needs (${API_KEY_SCOPES.join(', ')}; docs/api.md#key-scopes-and-limits)`,
    },
    bearerApiKey: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'API key',
      description: 'The same API key as `Authorization: Bearer <api key>` (the market-data style)',
    },
    clerkSession: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description:
        'A Clerk session JWT (RS256, verified offline with CLERK_JWT_KEY); a new `sub` is provisioned with 0 credits',
    },
    svixSignature: {
      type: 'apiKey',
      in: 'header',
      name: 'svix-signature',
      description:
        "Clerk's Svix signature (`v1,<base64 HMAC-SHA256>` over `<svix-id>.<svix-timestamp>.<body>` with " +
        'CLERK_WEBHOOK_SECRET), sent with svix-id and svix-timestamp (at most 5 minutes old)',
    },
  },
};
