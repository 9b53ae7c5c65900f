import path from 'node:path';
import type { FeatureModule } from '../platform/features/feature-module';
import { CASES_ERRORS } from './error-codes';
import { casesConfigSlice } from './config';

/** What the cases feature declares to the composition root (src/platform/features/feature-module.ts). */
export const casesModule: FeatureModule = {
  name: 'cases',
  errors: CASES_ERRORS,
  config: casesConfigSlice,
  schema: { migrations: path.join(__dirname, 'migrations'), functions: path.join(__dirname, 'functions') },
};
