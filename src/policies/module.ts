import path from 'node:path';
import type { FeatureModule } from '../platform/features/feature-module';
import { POLICIES_ERRORS } from './error-codes';
import { policiesConfigSlice } from './config';
import { policiesOpenApi } from './openapi';
import { policiesRoutes } from './routes';

/** What the policies feature declares to the composition root (src/platform/features/feature-module.ts). */
export const policiesModule = {
  name: 'policies',
  errors: POLICIES_ERRORS,
  config: policiesConfigSlice,
  schema: { migrations: path.join(__dirname, 'migrations'), functions: path.join(__dirname, 'functions') },
  openapi: policiesOpenApi,
  routes: policiesRoutes,
} satisfies FeatureModule;
