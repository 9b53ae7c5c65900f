import path from 'node:path';
import { listsActivities } from './worker-activities';
import { listsSchedules } from './schedules';
import { prepareLists } from './prepare';
import type { FeatureModule } from '../platform/features/feature-module';
import { LISTS_ERRORS } from './error-codes';
import { listsConfigSlice } from './config';
import { listsOpenApi } from './openapi';
import { listsAdvisories, listsRoutes } from './routes';

/** What the lists feature declares to the composition root (src/platform/features/feature-module.ts). */
export const listsModule = {
  name: 'lists',
  workflows: path.join(__dirname, 'workflows.ts'),
  errors: LISTS_ERRORS,
  config: listsConfigSlice,
  schema: { migrations: path.join(__dirname, 'migrations') },
  prepare: prepareLists,
  openapi: listsOpenApi,
  routes: listsRoutes,
  advisories: listsAdvisories,
  activities: listsActivities,
  schedules: listsSchedules,
  metrics: ['chainscreen_list_age_seconds'],
} satisfies FeatureModule;
