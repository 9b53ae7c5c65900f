import path from 'node:path';
import type { FeatureModule } from '../platform/features/feature-module';
import { MONITORS_ERRORS } from './error-codes';
import { monitorsConfigSlice } from './config';
import { monitorsOpenApi } from './openapi';

/** What the monitors feature declares to the composition root (src/platform/features/feature-module.ts). */
export const monitorsModule = {
  name: 'monitors',
  workflows: path.join(__dirname, 'workflows.ts'),
  errors: MONITORS_ERRORS,
  config: monitorsConfigSlice,
  schema: { migrations: path.join(__dirname, 'migrations'), functions: path.join(__dirname, 'functions') },
  openapi: monitorsOpenApi,
} satisfies FeatureModule;
