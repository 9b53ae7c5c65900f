import path from 'node:path';
import type { FeatureModule } from '../platform/features/feature-module';
import { batchesConfigSlice } from './config';

/** What the batches feature declares to the composition root (src/platform/features/feature-module.ts). */
export const batchesModule: FeatureModule = {
  name: 'batches',
  config: batchesConfigSlice,
  schema: { migrations: path.join(__dirname, 'migrations'), functions: path.join(__dirname, 'functions') },
};
