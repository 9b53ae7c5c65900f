import type { FeatureModule } from '../platform/features/feature-module';

/**
 * What every feature contributes under a name (an activity, a port), merged into one record. A name is contributed
 * once: a second feature's would silently replace the first's, so it is refused, naming both.
 */
export function collectOnce<Part>(
  features: readonly FeatureModule[],
  contributed: (feature: FeatureModule) => Readonly<Record<string, Part>> | undefined,
  what: string,
  into: Record<string, Part> = {},
): Record<string, Part> {
  const owner = new Map<string, string>();
  for (const feature of features) {
    for (const [name, part] of Object.entries(contributed(feature) ?? {})) {
      const taken = owner.get(name);
      if (taken) throw new Error(`${what} ${name} of ${feature.name} is provided already by ${taken}`);
      owner.set(name, feature.name);
      into[name] = part;
    }
  }
  return into;
}
