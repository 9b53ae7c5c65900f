import type { Response } from 'express';
import type { Pool } from 'pg';
import { createTieredLimiter } from './limiter';
import { createRateLimitMiddleware, type RateLimitCheck } from './middleware';
import type { RateLimitTier } from './tiers';

/**
 * One budget per account for a kind of request: every key and session of the account spends from the counter
 * `rl:<counter>:account:<account id>`, so more keys never mean more requests. The limit is the same figure whatever
 * the key's tier; the tier is only reported in the 429. The route places it after its scope check, before anything
 * is parsed, held or stored: a request over the limit is 429 RATE_LIMITED (RateLimit-* and Retry-After, as market
 * data answers) and nothing is charged, created or changed. Every request counts, refused and invalid ones too.
 * `perMinute` 0 turns the limit off.
 */
export function createAccountLimit(deps: {
  pool: Pool;
  perMinute: number;
  counter: string;
  describedAs: { limit: string; counts: string };
  /** The authenticated caller's account and its key's tier (the feature that holds the accounts says how). */
  accountOf: (res: Response) => { id: string; tier: RateLimitTier };
}): RateLimitCheck {
  if (deps.perMinute === 0) return async (_req, _res, next) => next();
  return createRateLimitMiddleware({
    // Counters in Postgres, like market data's: every api instance spends from the account's one budget.
    limiter: createTieredLimiter({ store: 'postgres', pool: deps.pool, limitOf: () => deps.perMinute }),
    principalOf: (res) => {
      const account = deps.accountOf(res);
      return { key: `${deps.counter}:account:${account.id}`, tier: account.tier };
    },
    describedAs: deps.describedAs,
  });
}
