import type { FeatureModule } from '../platform/features/feature-module';

/** What the custom-labels feature declares to the composition root (src/platform/features/feature-module.ts). */
export const customLabelsModule: FeatureModule = {
  name: 'custom-labels',
};
