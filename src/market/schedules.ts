import type { FeatureRuntime } from '../platform/features/feature-runtime';
import type { PlatformConfig } from '../platform/config/platform-config';
import type { MarketConfig } from './config';
import { reconcileMarketSync } from './market-sync-schedule';

/** The live candle sync: each worker's start makes it match its MARKET_LIVE_* config (stopped when off). */
export async function marketSchedules(runtime: FeatureRuntime): Promise<void> {
  await reconcileMarketSync(runtime.temporal, runtime.config as PlatformConfig & MarketConfig, runtime.log);
}
