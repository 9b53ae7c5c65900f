import type { FeatureModule } from '../platform/features/feature-module';

/** What the batches feature declares to the composition root (src/platform/features/feature-module.ts). */
export const batchesModule: FeatureModule = {
  name: 'batches',
};
