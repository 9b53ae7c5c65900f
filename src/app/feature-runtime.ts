import type { FeatureModule } from '../platform/features/feature-module';
import type {
  FeatureActivities,
  FeatureApiRuntime,
  FeatureRoutes,
  FeatureRuntime,
} from '../platform/features/feature-runtime';
import { collectOnce } from './collect-once';
import { FEATURES } from './features';

/** Every feature's routers over the api's runtime, in the order of the feature list. */
export function featureRoutes(
  runtime: FeatureApiRuntime,
  features: readonly FeatureModule[] = FEATURES,
): FeatureRoutes[] {
  return features.flatMap((feature) => (feature.routes ? [feature.routes(runtime)] : []));
}

/**
 * Every feature's activities over the worker's runtime. An activity name is registered once: a feature that reused
 * another's would silently replace it, so it is refused.
 */
export function featureActivities(
  runtime: FeatureRuntime,
  features: readonly FeatureModule[] = FEATURES,
): FeatureActivities {
  return collectOnce(features, (feature) => feature.activities?.(runtime), 'activity') as FeatureActivities;
}
