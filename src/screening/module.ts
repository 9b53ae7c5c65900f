import type { FeatureModule } from '../platform/features/feature-module';

/** What the screening feature declares to the composition root (src/platform/features/feature-module.ts). */
export const screeningModule: FeatureModule = {
  name: 'screening',
};
