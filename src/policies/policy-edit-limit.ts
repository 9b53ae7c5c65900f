import type { Pool } from 'pg';
import { rateLimitAccount } from '../identity';
import { createAccountLimit } from '../platform/rate-limit/account-limit';
import type { RateLimitCheck } from '../platform/rate-limit/middleware';

/**
 * Policy edits (POLICY_EDIT_LIMIT_PER_MINUTE): each PUT or DELETE of a policy or of the default, from the account's
 * own budget `rl:policy-edit:account:<id>` (src/platform/rate-limit/account-limit.ts).
 */
export function createPolicyEditLimit(deps: { pool: Pool; perMinute: number }): RateLimitCheck {
  return createAccountLimit({
    ...deps,
    counter: 'policy-edit',
    describedAs: { limit: 'Policy edit limit', counts: 'edits' },
    accountOf: rateLimitAccount,
  });
}
