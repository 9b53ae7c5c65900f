import type { FeatureOpenApi } from '../../platform/features/feature-openapi';
import { apiKeysOperations } from './api-keys-operations';
import { clerkWebhookOperations } from './clerk-webhook-operations';
import { teamsOperations } from './teams-operations';

/** Identity's operations for the OpenAPI document (src/platform/features/feature-openapi.ts). */
export const identityOpenApi: FeatureOpenApi = {
  operations: [apiKeysOperations, teamsOperations, clerkWebhookOperations],
};
