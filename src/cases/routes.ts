import type { FeatureApiRuntime, FeatureRoutes, FeatureRuntime } from '../platform/features/feature-runtime';
import { createEvidenceSigner } from '../platform/signing/evidence-signer';
import { createCasesRouter } from './cases-routes';
import { casesRouterDeps } from './cases-wiring';
import type { CasesConfig } from './config';

/**
 * Cases under /api/v1/cases: the queue, each case with its trail, the team's actions as workflow updates, and the
 * case file, whose answers are signed with the process's evidence keys exactly as their polls are.
 */
export function casesRoutes(runtime: FeatureApiRuntime): FeatureRoutes {
  return {
    v1: createCasesRouter(
      casesRouterDeps(runtime.pool, runtime.temporal, casesConfig(runtime), createEvidenceSigner(runtime.evidenceKeys)),
    ),
  };
}

/** Cases' keys, with the task queue its workflows run on: the runtime's. */
export function casesConfig(runtime: FeatureRuntime): CasesConfig & { TEMPORAL_TASK_QUEUE: string } {
  return { ...(runtime.config as CasesConfig), TEMPORAL_TASK_QUEUE: runtime.taskQueue };
}
