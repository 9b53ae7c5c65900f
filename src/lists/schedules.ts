import type { FeatureRuntime } from '../platform/features/feature-runtime';
import type { PlatformConfig } from '../platform/config/platform-config';
import type { ListsConfig } from './config';
import { ensureFreezeSync, type FreezeConfig } from './freezes';
import { ensureOfacRefresh } from './refresh-schedule';

/** The OFAC refresh (a run at once when the active issue is stale) and the stablecoin freeze sync. */
export async function listsSchedules(runtime: FeatureRuntime): Promise<void> {
  const config = runtime.config as PlatformConfig & ListsConfig & FreezeConfig;
  await ensureOfacRefresh(runtime.temporal, runtime.pool, config, runtime.log);
  await ensureFreezeSync(runtime.temporal, config, runtime.log);
}
