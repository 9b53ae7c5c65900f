import type { FeatureModule } from '../platform/features/feature-module';

/** What the monitors feature declares to the composition root (src/platform/features/feature-module.ts). */
export const monitorsModule: FeatureModule = {
  name: 'monitors',
};
