import path from 'node:path';
import type { FeatureModule } from '../platform/features/feature-module';
import { entitiesConfigSlice } from './config';
import { entitiesOpenApi } from './openapi';
import { entitiesRoutes } from './routes';
import { entitiesPorts } from './provided-ports';

/** What the entities feature declares to the composition root (src/platform/features/feature-module.ts). */
export const entitiesModule = {
  name: 'entities',
  config: entitiesConfigSlice,
  schema: { migrations: path.join(__dirname, 'migrations') },
  openapi: entitiesOpenApi,
  routes: entitiesRoutes,
  // The engine's wallet clusters (src/screening/ports.ts).
  provides: entitiesPorts,
} satisfies FeatureModule;
