import type { FeatureModule } from '../platform/features/feature-module';

/** What the cases feature declares to the composition root (src/platform/features/feature-module.ts). */
export const casesModule: FeatureModule = {
  name: 'cases',
};
