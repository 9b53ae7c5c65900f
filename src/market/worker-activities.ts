import type { FeatureRuntime } from '../platform/features/feature-runtime';
import { createMarketActivities } from './activities';
import type { MarketConfig } from './config';
import { liveSyncPlan } from './domain/live/live-sync-plan';

/** What tests replace in market's worker parts (FeatureRuntime.overrides, by these names). */
export interface MarketOverrides {
  /** The live sync's clock (a test fixes "now" against its recorded exchange answers). */
  marketClock?: () => number;
}

/** The market activities over the worker's runtime: a live sync reads only this worker's MARKET_LIVE_* plan. */
export function marketActivities(runtime: FeatureRuntime) {
  return createMarketActivities({
    pool: runtime.pool,
    marketLive: liveSyncPlan(runtime.config as MarketConfig),
    marketClock: (runtime.overrides as MarketOverrides).marketClock,
  });
}
