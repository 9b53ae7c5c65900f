import type { FeatureModule } from '../platform/features/feature-module';

/** What the x402 feature declares to the composition root (src/platform/features/feature-module.ts). */
export const x402Module: FeatureModule = {
  name: 'x402',
};
