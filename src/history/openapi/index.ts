import type { FeatureOpenApi } from '../../platform/features/feature-openapi';
import { activityOperations } from './activity-operations';
import { activityWebhookOperations } from './activity-webhook-operations';

/** History's operations for the OpenAPI document (src/platform/features/feature-openapi.ts). */
export const historyOpenApi: FeatureOpenApi = {
  operations: [activityOperations, activityWebhookOperations],
  tags: [{ name: 'Activity', description: 'Own activity history' }],
  securitySchemes: {
    activityWebhookSecret: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Activity-Webhook-Secret',
      description:
        'The shared ACTIVITY_WEBHOOK_SECRET, compared in constant time; unset on the server = every request is refused',
    },
  },
};
