import type { FeatureModule } from '../platform/features/feature-module';

/** What the entities feature declares to the composition root (src/platform/features/feature-module.ts). */
export const entitiesModule: FeatureModule = {
  name: 'entities',
};
