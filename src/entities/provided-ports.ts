import type { FeatureRuntime } from '../platform/features/feature-runtime';
import { loadRiskModel, type ScreeningConfig } from '../screening';
import { createClusterPort } from './cluster-port';
import { createClusterStore } from './cluster-store';
import type { EntitiesConfig } from './config';

/** The engine's cluster port: grown in pages of the risk model's crawl size, a merge told to the monitors. */
export function entitiesPorts(runtime: FeatureRuntime) {
  const config = runtime.config as EntitiesConfig & Pick<ScreeningConfig, 'REFERENCE_DATA_DIR'>;
  return {
    clusters: createClusterPort(createClusterStore(runtime.pool), {
      pageLimit: loadRiskModel(config.REFERENCE_DATA_DIR).document.crawl.page_size,
      rereadAfterMs: config.CLUSTER_REREAD_AFTER_MS,
      onMerged: (chain, clusterId) => runtime.ports.clusterMerged(chain, clusterId),
    }),
  };
}
