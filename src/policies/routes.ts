import type { FeatureApiRuntime, FeatureRoutes } from '../platform/features/feature-runtime';
import { shippedRiskModel } from '../screening';
import type { PoliciesConfig } from './config';
import { createPoliciesRouter } from './policies-routes';
import { createPolicyStore } from './policies-store';
import { createPolicyEditLimit } from './policy-edit-limit';

/** The account's risk policies under /api/v1/policies, bounded by the shipped model's policy_bounds. */
export function policiesRoutes(runtime: FeatureApiRuntime): FeatureRoutes {
  const config = runtime.config as PoliciesConfig;
  return {
    v1: createPoliciesRouter({
      policies: createPolicyStore(runtime.pool),
      model: shippedRiskModel(),
      // Counted in Postgres: every api instance spends from the account's one budget.
      limitEdits: createPolicyEditLimit({ pool: runtime.pool, perMinute: config.POLICY_EDIT_LIMIT_PER_MINUTE }),
    }),
  };
}
