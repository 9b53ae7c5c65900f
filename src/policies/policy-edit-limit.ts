import type { Pool } from 'pg';
import { currentUser } from '../identity';
import { createTieredLimiter } from '../platform/rate-limit/limiter';
import { createRateLimitMiddleware, type RateLimitCheck } from '../platform/rate-limit/middleware';

/**
 * Policy edits (POLICY_EDIT_LIMIT_PER_MINUTE): each PUT or DELETE of a policy or of the default, placed after the
 * route's scope check, before anything is parsed or written. One budget per account: every key and session of the
 * account spends from the counter `rl:policy-edit:account:<user id>`, so more keys never mean more edits. The limit
 * is the same figure whatever the key's tier (the tier is only reported in the 429). A request over it is 429
 * RATE_LIMITED (RateLimit-* and Retry-After); every request counts, refused and invalid ones too. 0 turns it off.
 */
export function createPolicyEditLimit(deps: { pool: Pool; perMinute: number }): RateLimitCheck {
  if (deps.perMinute === 0) return async (_req, _res, next) => next();
  return createRateLimitMiddleware({
    // Counters in Postgres, like market data's: every api instance spends from the account's one budget.
    limiter: createTieredLimiter({ store: 'postgres', pool: deps.pool, limitOf: () => deps.perMinute }),
    principalOf: (res) => {
      const user = currentUser(res);
      return { key: `policy-edit:account:${user.id}`, tier: user.apiKey?.rateLimitTier ?? 'free' };
    },
    describedAs: { limit: 'Policy edit limit', counts: 'edits' },
  });
}
