import { createScreeningActivities, type ScreeningActivityDeps } from './screening';

export type ActivityDeps = ScreeningActivityDeps;

/** Every activity the worker registers, built over injected dependencies. */
export function createActivities(deps: ActivityDeps) {
  return { ...createScreeningActivities(deps) };
}

export type Activities = ReturnType<typeof createActivities>;
