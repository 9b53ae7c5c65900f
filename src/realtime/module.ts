import type { FeatureModule } from '../platform/features/feature-module';

/** What the realtime feature declares to the composition root (src/platform/features/feature-module.ts). */
export const realtimeModule: FeatureModule = {
  name: 'realtime',
};
