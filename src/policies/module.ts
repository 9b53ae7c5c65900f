import type { FeatureModule } from '../platform/features/feature-module';

/** What the policies feature declares to the composition root (src/platform/features/feature-module.ts). */
export const policiesModule: FeatureModule = {
  name: 'policies',
};
