import type { Response } from 'express';
import type { Pool } from 'pg';
import { currentUser } from '../identity';
import { createTieredLimiter } from '../platform/rate-limit/limiter';
import { createRateLimitMiddleware, type RateLimitCheck } from '../platform/rate-limit/middleware';
import type { RateLimitPrincipal } from '../platform/rate-limit/tiers';

/**
 * One budget per account for a kind of request: every key and session of the account spends from the counter
 * `rl:<counter>:account:<user id>` (apart from its market-data one), so more keys never mean more requests. The limit
 * is the same figure whatever the key's tier; the tier is only reported in the 429. (Policy edits have their own
 * budget, `rl:policy-edit:account:<user id>`, built by src/policies/policy-edit-limit.ts.)
 */
const accountPrincipal =
  (counter: string) =>
  (res: Response): RateLimitPrincipal => {
    const user = currentUser(res);
    return { key: `${counter}:account:${user.id}`, tier: user.apiKey?.rateLimitTier ?? 'free' };
  };

/**
 * The middleware a route places after its scope check, before anything is parsed, held or stored: a request over
 * the limit is 429 RATE_LIMITED (RateLimit-* and Retry-After, as market data answers) and nothing is charged,
 * created or changed. Every request counts, refused and invalid ones too. `perMinute` 0 turns the limit off.
 */
function createAccountLimit(deps: {
  pool: Pool;
  perMinute: number;
  counter: string;
  describedAs: { limit: string; counts: string };
}): RateLimitCheck {
  if (deps.perMinute === 0) return async (_req, _res, next) => next();
  return createRateLimitMiddleware({
    // Counters in Postgres, like market data's: every api instance spends from the account's one budget.
    limiter: createTieredLimiter({ store: 'postgres', pool: deps.pool, limitOf: () => deps.perMinute }),
    principalOf: accountPrincipal(deps.counter),
    describedAs: deps.describedAs,
  });
}

/** Requests that start paid work (JOB_SUBMIT_LIMIT_PER_MINUTE): job submits, the deprecated analyze, monitors. */
export function createJobSubmitLimit(deps: { pool: Pool; perMinute: number }): RateLimitCheck {
  return createAccountLimit({
    ...deps,
    counter: 'job-submit',
    describedAs: { limit: 'Job submit limit', counts: 'submits' },
  });
}
