import type { FeatureModule } from '../platform/features/feature-module';

/** What the billing feature declares to the composition root (src/platform/features/feature-module.ts). */
export const billingModule: FeatureModule = {
  name: 'billing',
};
