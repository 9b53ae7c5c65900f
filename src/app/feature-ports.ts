import type { FeatureModule } from '../platform/features/feature-module';
import type { FeaturePorts } from '../platform/features/feature-ports';
import type { FeatureRuntime } from '../platform/features/feature-runtime';
import { collectOnce } from './collect-once';
import { FEATURES } from './features';

/**
 * The runtime with every feature's ports (FeatureModule.provides). Each provider is given the runtime whose `ports`
 * is the object being filled, so a port may call another one when it runs. A port provided twice is refused: the
 * second would silently replace the first.
 */
export function withPorts<Runtime extends Omit<FeatureRuntime, 'ports'>>(
  base: Runtime,
  features: readonly FeatureModule[] = FEATURES,
): Runtime & { ports: FeaturePorts } {
  const ports: Record<string, unknown> = {};
  const runtime = { ...base, ports: ports as unknown as FeaturePorts };
  collectOnce(features, (feature) => feature.provides?.(runtime), 'port', ports);
  return runtime;
}
