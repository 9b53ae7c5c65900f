import type { ClusterPort } from './engine/cluster-labels';
import type { CustomLabelLookup } from './engine/custom-labels';

/** What the engine reads of the features built over screening (they import screening, so it cannot import them). */
declare module '../platform/features/feature-ports' {
  interface FeaturePorts {
    /** The custom-labels feature: each account's own labels, read by that account's screenings only. */
    customLabels: CustomLabelLookup;
    /** The entities feature: wallet clusters, grown by each screening within its call budget. */
    clusters: ClusterPort;
  }
}
