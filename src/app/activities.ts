import { createBatchActivities, type BatchActivityDeps } from '../batches/activities';
import { createCaseActivities, type CaseActivityDeps } from '../cases/activities';
import { createBillingActivities, type BillingActivityDeps } from '../billing/activities';
import { createIdentityActivities, type IdentityActivityDeps } from '../identity/activities';
import { createListActivities, type ListActivityDeps } from '../lists/activities';
import { createMarketActivities, type MarketActivityDeps } from '../market/activities';
import { createMonitorActivities, type MonitorActivityDeps } from '../monitors/activities';
import { createScreeningActivities, type ScreeningActivityDeps } from '../screening/activities';
import { createQueuedJobActivities, type QueuedJobActivityDeps } from '../screening/sweeper-activities';

export type ActivityDeps = ScreeningActivityDeps &
  QueuedJobActivityDeps &
  BillingActivityDeps &
  IdentityActivityDeps &
  MarketActivityDeps &
  ListActivityDeps &
  MonitorActivityDeps &
  BatchActivityDeps &
  CaseActivityDeps;

/** Every activity the worker registers, built over injected dependencies, one factory per feature. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createScreeningActivities(deps),
    ...createQueuedJobActivities(deps),
    ...createBillingActivities(deps),
    ...createIdentityActivities(deps),
    ...createMarketActivities(deps),
    ...createListActivities(deps),
    ...createMonitorActivities(deps),
    ...createBatchActivities(deps),
    ...createCaseActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
