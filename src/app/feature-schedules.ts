import type { FeatureModule } from '../platform/features/feature-module';
import type { FeatureRuntime } from '../platform/features/feature-runtime';
import { FEATURES } from './features';

/**
 * Every feature's schedules, in the order of the feature list: each worker's start brings them to its config. One
 * after another, not at once: two upserts of one schedule by a single worker would race each other.
 */
export async function startFeatureSchedules(
  runtime: FeatureRuntime,
  features: readonly FeatureModule[] = FEATURES,
): Promise<void> {
  for (const feature of features) await feature.schedules?.(runtime);
}
