import type { FeatureModule } from '../platform/features/feature-module';

/** What the market feature declares to the composition root (src/platform/features/feature-module.ts). */
export const marketModule: FeatureModule = {
  name: 'market',
};
