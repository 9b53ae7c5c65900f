import type { FeatureRuntime } from '../platform/features/feature-runtime';
import { createListActivities } from './activities';
import type { ListsConfig } from './config';
import { type FreezeConfig, freezeSyncSettings, type FreezeSyncSettings } from './freezes';
import { listRefreshSources } from './refresh-sources';

/** What tests replace in the lists' worker parts (FeatureRuntime.overrides, by these names). */
export interface ListsOverrides {
  /** Where the stablecoin freeze sync reads (a test's own node and contracts). */
  freezeSync?: FreezeSyncSettings;
}

/**
 * The list activities over the worker's runtime: a refresh or a freeze sync reads only what this worker's config
 * names (OFAC_REFRESH_SOURCE and OFAC_ISSUE_DIR; the chains' nodes and the FREEZES_* contracts), whatever a
 * workflow's input asks for.
 */
export function listsActivities(runtime: FeatureRuntime) {
  const config = runtime.config as ListsConfig & FreezeConfig;
  return createListActivities({
    pool: runtime.pool,
    log: runtime.log,
    listSources: listRefreshSources(config),
    freezeSync: (runtime.overrides as ListsOverrides).freezeSync ?? freezeSyncSettings(config),
  });
}
