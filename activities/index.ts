import { createBillingActivities, type BillingActivityDeps } from './billing';
import { createScreeningActivities, type ScreeningActivityDeps } from './screening';

export type ActivityDeps = ScreeningActivityDeps & BillingActivityDeps;

/** Every activity the worker registers, built over injected dependencies. */
export function createActivities(deps: ActivityDeps) {
  return { ...createScreeningActivities(deps), ...createBillingActivities(deps) };
}

export type Activities = ReturnType<typeof createActivities>;
