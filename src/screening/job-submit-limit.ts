import type { Pool } from 'pg';
import { rateLimitAccount } from '../identity';
import { createAccountLimit } from '../platform/rate-limit/account-limit';
import type { RateLimitCheck } from '../platform/rate-limit/middleware';

/**
 * Requests that start paid work (JOB_SUBMIT_LIMIT_PER_MINUTE): job submits, the deprecated analyze, monitor creates.
 * Each route builds its own over the same counter `rl:job-submit:account:<id>` in Postgres, so they spend from one
 * per-account budget in every api instance.
 */
export function createJobSubmitLimit(deps: { pool: Pool; perMinute: number }): RateLimitCheck {
  return createAccountLimit({
    ...deps,
    counter: 'job-submit',
    describedAs: { limit: 'Job submit limit', counts: 'submits' },
    accountOf: rateLimitAccount,
  });
}
