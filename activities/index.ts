import { createBatchActivities, type BatchActivityDeps } from './batches';
import { createCaseActivities, type CaseActivityDeps } from './cases';
import { createBillingActivities, type BillingActivityDeps } from './billing';
import { createIdentityActivities, type IdentityActivityDeps } from './identity';
import { createListActivities, type ListActivityDeps } from './lists';
import { createMarketActivities, type MarketActivityDeps } from './market';
import { createMonitorActivities, type MonitorActivityDeps } from './monitors';
import { createScreeningActivities, type ScreeningActivityDeps } from './screening';
import { createQueuedJobActivities, type QueuedJobActivityDeps } from './screening-sweeper';

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
