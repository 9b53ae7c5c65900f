import type { Chain } from '../screening';

/** What the entities feature tells others. */
declare module '../platform/features/feature-ports' {
  interface FeaturePorts {
    /** The monitors feature: an expansion merged sets, so monitors watching the cluster may be due a re-screen. */
    clusterMerged: (chain: Chain, clusterId: number) => Promise<unknown>;
  }
}
