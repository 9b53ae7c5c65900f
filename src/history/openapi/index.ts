import type { FeatureOpenApi } from '../../platform/features/feature-openapi';
import { activityOperations } from './activity-operations';
import { activityWebhookOperations } from './activity-webhook-operations';

/** History's operations for the OpenAPI document (src/platform/features/feature-openapi.ts). */
export const historyOpenApi: FeatureOpenApi = { operations: [activityOperations, activityWebhookOperations] };
