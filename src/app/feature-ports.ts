import type { FeatureModule } from '../platform/features/feature-module';
import type { FeaturePorts } from '../platform/features/feature-ports';
import type { FeatureRuntime } from '../platform/features/feature-runtime';
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
  const ports: Partial<FeaturePorts> = {};
  const runtime = { ...base, ports: ports as FeaturePorts };
  const owner = new Map<string, string>();
  for (const feature of features) {
    for (const [name, port] of Object.entries(feature.provides?.(runtime) ?? {})) {
      const taken = owner.get(name);
      if (taken) throw new Error(`port ${name} of ${feature.name} is provided already by ${taken}`);
      owner.set(name, feature.name);
      (ports as Record<string, unknown>)[name] = port;
    }
  }
  return runtime;
}
