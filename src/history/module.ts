import type { FeatureModule } from '../platform/features/feature-module';

/** What the history feature declares to the composition root (src/platform/features/feature-module.ts). */
export const historyModule: FeatureModule = {
  name: 'history',
};
