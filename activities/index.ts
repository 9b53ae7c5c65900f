import { createBillingActivities, type BillingActivityDeps } from './billing';
import { createIdentityActivities, type IdentityActivityDeps } from './identity';
import { createMarketActivities, type MarketActivityDeps } from './market';
import { createScreeningActivities, type ScreeningActivityDeps } from './screening';
import { createQueuedJobActivities, type QueuedJobActivityDeps } from './screening-sweeper';

export type ActivityDeps = ScreeningActivityDeps &
  QueuedJobActivityDeps &
  BillingActivityDeps &
  IdentityActivityDeps &
  MarketActivityDeps;

/** Every activity the worker registers, built over injected dependencies, one factory per feature. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createScreeningActivities(deps),
    ...createQueuedJobActivities(deps),
    ...createBillingActivities(deps),
    ...createIdentityActivities(deps),
    ...createMarketActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
