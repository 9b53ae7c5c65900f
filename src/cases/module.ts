import path from 'node:path';
import { casesActivities } from './worker-activities';
import type { FeatureModule } from '../platform/features/feature-module';
import { CASES_ERRORS } from './error-codes';
import { casesConfigSlice } from './config';
import { casesOpenApi } from './openapi';

/** What the cases feature declares to the composition root (src/platform/features/feature-module.ts). */
export const casesModule = {
  name: 'cases',
  workflows: path.join(__dirname, 'workflows.ts'),
  errors: CASES_ERRORS,
  config: casesConfigSlice,
  schema: { migrations: path.join(__dirname, 'migrations'), functions: path.join(__dirname, 'functions') },
  openapi: casesOpenApi,
  activities: casesActivities,
} satisfies FeatureModule;
