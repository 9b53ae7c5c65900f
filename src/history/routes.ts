import type { FeatureApiRuntime, FeatureRoutes } from '../platform/features/feature-runtime';
import type { HistoryConfig } from './config';
import { createHistoryRouter } from './history-routes';
import { createHistoryStore } from './history-store';
import { createHistoryWebhookRouter } from './history-webhook-route';
import { HISTORY_WEBHOOK } from './webhook-providers';

/**
 * The account's history under /api/v1/activity, and the webhook other services post entries to (spec 4.5), which
 * reads its raw body itself and so is mounted before the JSON parser.
 */
export function historyRoutes(runtime: FeatureApiRuntime): FeatureRoutes {
  const config = runtime.config as HistoryConfig;
  const history = createHistoryStore(runtime.pool);
  if (!config.ACTIVITY_WEBHOOK_SECRET)
    runtime.log.warn(`ACTIVITY_WEBHOOK_SECRET is not set: POST ${HISTORY_WEBHOOK.path} refuses every request with 401`);
  return {
    webhooks: createHistoryWebhookRouter({
      history,
      activityWebhookSecret: config.ACTIVITY_WEBHOOK_SECRET,
      log: runtime.log,
    }),
    v1: createHistoryRouter({ history }),
  };
}
