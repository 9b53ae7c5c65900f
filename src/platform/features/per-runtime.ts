import type { FeatureRuntime } from './feature-runtime';

/**
 * A feature's part that a process holds once (a cache of credentials, a verifier with its budget), built the first
 * time the feature's routes, ports or observers ask for it over a runtime, and shared by all of them after.
 */
export function perRuntime<Part>(build: (runtime: FeatureRuntime) => Part): (runtime: FeatureRuntime) => Part {
  // Keyed by the runtime's ports object: one per process runtime, whatever copies of the runtime are passed around.
  const built = new WeakMap<object, Part>();
  return (runtime) => {
    const key = runtime.ports as object;
    if (!built.has(key)) built.set(key, build(runtime));
    return built.get(key) as Part;
  };
}
