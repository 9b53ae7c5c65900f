import { createCustomLabelStore } from '../custom-labels';
import type { FeatureApiRuntime, FeatureRoutes } from '../platform/features/feature-runtime';
import { createReferenceData, type ScreeningConfig, shippedRiskModel } from '../screening';
import { createClusterStore } from './cluster-store';
import { createClustersRouter } from './clusters-routes';

/** Wallet clusters under /api/v1/clusters, labelled from the reference data and the caller's own labels. */
export function entitiesRoutes(runtime: FeatureApiRuntime): FeatureRoutes {
  const config = runtime.config as Pick<ScreeningConfig, 'BITCOIN_NETWORK'>;
  return {
    v1: createClustersRouter({
      clusters: createClusterStore(runtime.pool),
      referenceData: createReferenceData(runtime.pool),
      customLabels: createCustomLabelStore(runtime.pool),
      model: shippedRiskModel(),
      bitcoinNetwork: config.BITCOIN_NETWORK,
    }),
  };
}
