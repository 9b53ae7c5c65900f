import path from 'node:path';
import { marketActivities } from './worker-activities';
import { marketSchedules } from './schedules';
import { prepareMarket } from './prepare';
import type { FeatureModule } from '../platform/features/feature-module';
import { MARKET_ERRORS } from './error-codes';
import { marketConfigSlice } from './config';
import { marketOpenApi } from './openapi';
import { marketRoutes } from './market-routes';

/** What the market feature declares to the composition root (src/platform/features/feature-module.ts). */
export const marketModule = {
  name: 'market',
  workflows: path.join(__dirname, 'workflows.ts'),
  errors: MARKET_ERRORS,
  config: marketConfigSlice,
  schema: { migrations: path.join(__dirname, 'migrations') },
  prepare: prepareMarket,
  openapi: marketOpenApi,
  routes: marketRoutes,
  activities: marketActivities,
  schedules: marketSchedules,
} satisfies FeatureModule;
