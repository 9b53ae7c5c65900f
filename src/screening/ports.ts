import type { ClusterPort } from './engine/cluster-labels';
import type { CustomLabelLookup } from './engine/custom-labels';
import type { RescoreView } from './rescore/rescore-views';

/** What screening reads of, or tells, the features built over it (they import screening, so it cannot import them). */
declare module '../platform/features/feature-ports' {
  interface FeaturePorts {
    /** The custom-labels feature: each account's own labels, read by that account's screenings only. */
    customLabels: CustomLabelLookup;
    /** The entities feature: wallet clusters, grown by each screening within its call budget. */
    clusters: ClusterPort;
    /** The cases feature: a stored answer was scored again under a policy (its alert may open or close a case). */
    rescored: (accountId: string, view: RescoreView) => Promise<void>;
  }
}
