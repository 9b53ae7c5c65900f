import path from 'node:path';
import { batchesRoutes } from './routes';
import type { FeatureModule } from '../platform/features/feature-module';
import { batchesConfigSlice } from './config';
import { batchesOpenApi } from './openapi';
import { batchesActivities } from './worker-activities';

/** What the batches feature declares to the composition root (src/platform/features/feature-module.ts). */
export const batchesModule = {
  name: 'batches',
  workflows: path.join(__dirname, 'workflows.ts'),
  config: batchesConfigSlice,
  schema: { migrations: path.join(__dirname, 'migrations'), functions: path.join(__dirname, 'functions') },
  openapi: batchesOpenApi,
  routes: batchesRoutes,
  activities: batchesActivities,
  socketEvents: [
    {
      name: 'batch_progress',
      description: 'A batch moved: `{batchId, status, counts, credits}`, coalesced while its items finish',
    },
  ],
} satisfies FeatureModule;
