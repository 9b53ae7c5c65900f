import type { FeatureModule } from '../platform/features/feature-module';

/** What the lists feature declares to the composition root (src/platform/features/feature-module.ts). */
export const listsModule: FeatureModule = {
  name: 'lists',
};
