import type { FeatureModule } from '../platform/features/feature-module';

/** What the identity feature declares to the composition root (src/platform/features/feature-module.ts). */
export const identityModule: FeatureModule = {
  name: 'identity',
};
