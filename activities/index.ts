import { createBillingActivities, type BillingActivityDeps } from './billing';
import { createMarketActivities, type MarketActivityDeps } from './market';
import { createScreeningActivities, type ScreeningActivityDeps } from './screening';
import { createQueuedJobActivities, type QueuedJobActivityDeps } from './queued-jobs';

export type ActivityDeps = ScreeningActivityDeps & BillingActivityDeps & MarketActivityDeps & QueuedJobActivityDeps;

/** Every activity the worker registers, built over injected dependencies. */
export function createActivities(deps: ActivityDeps) {
  return { ...createScreeningActivities(deps), ...createBillingActivities(deps), ...createMarketActivities(deps), ...createQueuedJobActivities(deps) };
}

export type Activities = ReturnType<typeof createActivities>;
