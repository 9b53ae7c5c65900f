import type { Response } from 'express';
import type { Pool } from 'pg';
import { currentUser } from '../identity';
import { createTieredLimiter } from '../platform/rate-limit/limiter';
import { createRateLimitMiddleware, type RateLimitCheck } from '../platform/rate-limit/middleware';
import type { RateLimitPrincipal } from '../platform/rate-limit/tiers';

/**
 * One budget per account for the requests that start paid work: every key and session of the account spends from
 * the counter `rl:job-submit:account:<user id>` (apart from its market-data one), so more keys never mean more
 * submits. The limit is the same figure whatever the key's tier; the tier is only reported in the 429.
 */
function submitPrincipalOf(res: Response): RateLimitPrincipal {
  const user = currentUser(res);
  return { key: `job-submit:account:${user.id}`, tier: user.apiKey?.rateLimitTier ?? 'free' };
}

/**
 * The middleware the submitting routes place after their scope check, before anything is parsed, held or stored: a
 * request over the limit is 429 RATE_LIMITED (RateLimit-* and Retry-After, as market data answers) and nothing is
 * charged or created. Every submit counts, refused and invalid ones too. `perMinute` 0 turns the limit off.
 */
export function createJobSubmitLimit(deps: { pool: Pool; perMinute: number }): RateLimitCheck {
  if (deps.perMinute === 0) return async (_req, _res, next) => next();
  return createRateLimitMiddleware({
    // Counters in Postgres, like market data's: every api instance spends from the account's one budget.
    limiter: createTieredLimiter({ store: 'postgres', pool: deps.pool, limitOf: () => deps.perMinute }),
    principalOf: submitPrincipalOf,
    describedAs: { limit: 'Job submit limit', counts: 'submits' },
  });
}
