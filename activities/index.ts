import { createBillingActivities, type BillingActivityDeps } from './billing';
import { createMarketActivities, type MarketActivityDeps } from './market';
import { createScreeningActivities, type ScreeningActivityDeps } from './screening';

export type ActivityDeps = ScreeningActivityDeps & BillingActivityDeps & MarketActivityDeps;

/** Every activity the worker registers, built over injected dependencies. */
export function createActivities(deps: ActivityDeps) {
  return { ...createScreeningActivities(deps), ...createBillingActivities(deps), ...createMarketActivities(deps) };
}

export type Activities = ReturnType<typeof createActivities>;
