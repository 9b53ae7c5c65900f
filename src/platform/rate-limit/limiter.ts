import type { Pool } from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { requestsPerMinute, type RateLimitPrincipal, type RateLimitTier } from './tiers';

/** The outcome of one request against its key's limit, in the terms the headers need. */
export interface RateLimitDecision {
  allowed: boolean;
  tier: RateLimitTier;
  limit: number;
  remaining: number;
  /** Whole seconds (rounded up, >= 0) until the key's window resets. */
  resetSeconds: number;
  windowSeconds: number;
}

export interface TieredLimiter {
  consume(principal: RateLimitPrincipal): Promise<RateLimitDecision>;
}

export type TieredLimiterOptions =
  /** Counters in Postgres (rate_limit_counters, migration 012), shared by every api instance. */
  | { store: 'postgres'; pool: Pool }
  /** Counters in this process only: for tests and single-process tools. */
  | { store: 'memory' };

/** The table migration 012 creates in rate-limiter-flexible's own layout. */
const COUNTER_TABLE = 'rate_limit_counters';

interface PointLimiter {
  consume(key: string, points?: number): Promise<RateLimiterRes>;
}

/**
 * Counters of different limits must never mix, so each limit gets its own key prefix: `rl60:key:<id>`
 * (the window is added when it is not the standard minute, e.g. `rl60w5:`). A key whose tier changes
 * therefore starts a fresh counter under its new limit.
 */
function keyPrefixFor(limit: number, windowSeconds: number): string {
  return windowSeconds === 60 ? `rl${limit}` : `rl${limit}w${windowSeconds}`;
}

/**
 * One limiter per distinct limit (free, pro and each enterprise figure), created on first use and kept.
 * Every limit counts `limit` requests per fixed window of `windowSeconds` that starts at the key's first
 * request (rate-limiter-flexible's model); the default window is the tiers' minute.
 */
export function createTieredLimiter(options: TieredLimiterOptions, windowSeconds = 60): TieredLimiter {
  if (!Number.isInteger(windowSeconds) || windowSeconds < 1)
    throw new Error(`windowSeconds must be a positive integer, got ${windowSeconds}`);
  const limiters = new Map<number, PointLimiter>();

  const limiterFor = (limit: number): PointLimiter => {
    const existing = limiters.get(limit);
    if (existing) return existing;
    const keyPrefix = keyPrefixFor(limit, windowSeconds);
    const created =
      options.store === 'memory'
        ? new RateLimiterMemory({ points: limit, duration: windowSeconds, keyPrefix })
        : new RateLimiterPostgres({
            storeClient: options.pool,
            storeType: 'pool',
            tableName: COUNTER_TABLE,
            tableCreated: true,
            keyPrefix,
            points: limit,
            duration: windowSeconds,
            // The expired-row sweep deletes across the whole table, so one sweeper per process is enough.
            clearExpiredByTimeout: limiters.size === 0,
            // A store failure (database down, pool ended) falls back to a per-process counter with the same
            // limit: each instance then admits up to `limit` per window on its own, instead of answering 500.
            insuranceLimiter: new RateLimiterMemory({ points: limit, duration: windowSeconds, keyPrefix }),
          });
    // All Postgres limiters share the prepared-statement names `rate_limit_counters:rlflx-*` (the library
    // names them after the table); that is safe because the statement text depends only on the table,
    // so every limiter prepares the identical statement on a pooled connection.
    limiters.set(limit, created);
    return created;
  };

  return {
    async consume(principal) {
      const limit = requestsPerMinute(principal);
      const decide = (allowed: boolean, res: RateLimiterRes): RateLimitDecision => ({
        allowed,
        tier: principal.tier,
        limit,
        remaining: allowed ? Math.min(limit, Math.max(0, res.remainingPoints)) : 0,
        // msBeforeNext is -1 for a counter without expiry, which a positive window never produces.
        resetSeconds: Math.max(0, Math.ceil(res.msBeforeNext / 1000)),
        windowSeconds,
      });
      try {
        return decide(true, await limiterFor(limit).consume(principal.key, 1));
      } catch (rejection: unknown) {
        // Over the limit, rate-limiter-flexible rejects with a RateLimiterRes, not an Error.
        if (rejection instanceof RateLimiterRes) return decide(false, rejection);
        throw rejection;
      }
    },
  };
}
