import path from 'node:path';
import type { FeatureModule } from '../platform/features/feature-module';
import { CUSTOM_LABELS_ERRORS } from './error-codes';
import { customLabelsConfigSlice } from './config';
import { customLabelsOpenApi } from './openapi';
import { customLabelsRoutes } from './routes';
import { createCustomLabelStore } from './custom-labels-store';

/** What the custom-labels feature declares to the composition root (src/platform/features/feature-module.ts). */
export const customLabelsModule = {
  name: 'custom-labels',
  errors: CUSTOM_LABELS_ERRORS,
  config: customLabelsConfigSlice,
  schema: { migrations: path.join(__dirname, 'migrations') },
  openapi: customLabelsOpenApi,
  routes: customLabelsRoutes,
  // Each screening reads its account's own labels (src/screening/ports.ts).
  provides: (runtime) => ({ customLabels: createCustomLabelStore(runtime.pool) }),
} satisfies FeatureModule;
