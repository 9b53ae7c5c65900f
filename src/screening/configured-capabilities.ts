import { configuredChains } from './chains/registry';
import { capabilitiesFor, type EngineCapabilities } from './engine/capabilities';
import type { ScreeningConfig } from './config';

/** What this process's engine can screen: the chains whose node or API its config names. */
export function configuredCapabilities(config: ScreeningConfig): EngineCapabilities {
  return capabilitiesFor(configuredChains(config));
}
