import path from 'node:path';
import type { FeatureModule } from '../platform/features/feature-module';
import { historyConfigSlice } from './config';
import { HISTORY_WEBHOOK_PROVIDERS } from './webhook-providers';
import { historyOpenApi } from './openapi';
import { historyRoutes } from './routes';

/** What the history feature declares to the composition root (src/platform/features/feature-module.ts). */
export const historyModule = {
  name: 'history',
  config: historyConfigSlice,
  schema: { migrations: path.join(__dirname, 'migrations'), functions: path.join(__dirname, 'functions') },
  webhookProviders: HISTORY_WEBHOOK_PROVIDERS,
  openapi: historyOpenApi,
  routes: historyRoutes,
  socketEvents: [
    {
      name: 'activity_recorded',
      description:
        "A history entry was recorded (a job's, a report's, the activity webhook's): `{id, requestId, " +
        'activityType, statusCode, isError, blockchain, transactionHash, address, entityId, entityName, ' +
        'riskLevel, riskScore, responseSummary, source, createdAt}`',
    },
  ],
} satisfies FeatureModule;
