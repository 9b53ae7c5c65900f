import type { FeatureApiRuntime, FeatureRoutes } from '../platform/features/feature-runtime';
import { type ScreeningConfig, shippedRiskModel } from '../screening';
import type { CustomLabelsConfig } from './config';
import { createCustomLabelsRouter } from './custom-labels-routes';
import { createCustomLabelStore } from './custom-labels-store';

/** The account's own labels under /api/v1/custom-labels, over the api's runtime. */
export function customLabelsRoutes(runtime: FeatureApiRuntime): FeatureRoutes {
  const config = runtime.config as CustomLabelsConfig & Pick<ScreeningConfig, 'BITCOIN_NETWORK'>;
  return {
    v1: createCustomLabelsRouter({
      customLabels: createCustomLabelStore(runtime.pool),
      model: shippedRiskModel(),
      maxPerAccount: config.MAX_CUSTOM_LABELS_PER_ACCOUNT,
      bitcoinNetwork: config.BITCOIN_NETWORK,
    }),
  };
}
