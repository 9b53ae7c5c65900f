import type { Pool } from 'pg';
import { RateLimiterMemory, RateLimiterPostgres } from 'rate-limiter-flexible';
import { requestsPerMinute, type RateLimitPrincipal, type RateLimitTier } from './tiers';
import { decision, spendOnePoint, type SpendInStatement } from './spend-in-statement';

/** The outcome of one request against its principal's limit, in the terms the headers need. */
export interface RateLimitDecision {
  allowed: boolean;
  tier: RateLimitTier;
  limit: number;
  remaining: number;
  /** Whole seconds (rounded up, >= 0) until the principal's window resets. */
  resetSeconds: number;
  windowSeconds: number;
}

export interface TieredLimiter {
  consume(principal: RateLimitPrincipal): Promise<RateLimitDecision>;
  /**
   * Postgres store only: the same spend as `consume`, for a route to run in its own statement (one round trip for
   * the point and the read; spend-in-statement.ts). The memory store has none: such a route calls `consume`.
   */
  spendInStatement?(principal: RateLimitPrincipal): SpendInStatement;
}

export type TieredLimiterOptions =
  /** Counters in Postgres (rate_limit_counters, migration 012), shared by every api instance. */
  (
    | { store: 'postgres'; pool: Pool }
    /** Counters in this process only: for tests and single-process tools. */
    | { store: 'memory' }
  ) & {
    /**
     * The limit a request is checked against: by default its key's tier (market data); a fixed figure for a limit
     * that is the same for every account whatever its tier (job submits, JOB_SUBMIT_LIMIT_PER_MINUTE).
     */
    limitOf?: (principal: RateLimitPrincipal) => number;
  };

/** The table migration 012 creates in rate-limiter-flexible's own layout (spend-in-statement.ts writes it too). */
const COUNTER_TABLE = 'rate_limit_counters';

/**
 * The counters only count: every limit is decided per request from the points already spent, so one counter can
 * serve requests checked against different limits (an account's keys of different tiers spend one budget). The
 * library's own ceiling is therefore the counter column's largest value, which no window reaches.
 */
const COUNT_ONLY = 2_147_483_647;

/**
 * The counter key prefix: `rl:` for the standard minute, `rlw5:` for another window (counters of different
 * windows must never mix). The rest of the key is the principal's, e.g. `rl:account:<user id>`.
 */
function keyPrefixFor(windowSeconds: number): string {
  return windowSeconds === 60 ? 'rl' : `rlw${windowSeconds}`;
}

/**
 * One counter per principal and fixed window of `windowSeconds` that starts at its first request
 * (rate-limiter-flexible's model); a request is allowed while the points spent in the window, its own included,
 * are at most its limit (`limitOf`: by default free, pro or the enterprise figure). Refused requests count too, as
 * they always have.
 */
export function createTieredLimiter(options: TieredLimiterOptions, windowSeconds = 60): TieredLimiter {
  if (!Number.isInteger(windowSeconds) || windowSeconds < 1)
    throw new Error(`windowSeconds must be a positive integer, got ${windowSeconds}`);
  const limitOf = options.limitOf ?? requestsPerMinute;
  const keyPrefix = keyPrefixFor(windowSeconds);
  const inMemory = () => new RateLimiterMemory({ points: COUNT_ONLY, duration: windowSeconds, keyPrefix });
  const counter =
    options.store === 'memory'
      ? inMemory()
      : new RateLimiterPostgres({
          storeClient: options.pool,
          storeType: 'pool',
          tableName: COUNTER_TABLE,
          tableCreated: true,
          keyPrefix,
          points: COUNT_ONLY,
          duration: windowSeconds,
          // A store failure (database down, pool ended) falls back to a per-process counter: each instance then
          // admits up to the limit per window on its own, instead of answering 500.
          insuranceLimiter: inMemory(),
        });

  const limiter: TieredLimiter = {
    async consume(principal) {
      const limit = limitOf(principal);
      const spent = await counter.consume(principal.key, 1);
      return decision({ tier: principal.tier, limit, windowSeconds }, spent.consumedPoints, spent.msBeforeNext);
    },
  };
  if (options.store === 'postgres')
    limiter.spendInStatement = (principal) =>
      spendOnePoint({
        // rate-limiter-flexible's key: `<prefix>:<key>`.
        counterKey: `${keyPrefix}:${principal.key}`,
        windowSeconds,
        limit: limitOf(principal),
        tier: principal.tier,
      });
  return limiter;
}
