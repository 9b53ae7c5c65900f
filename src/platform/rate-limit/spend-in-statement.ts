import type { RateLimitDecision } from './limiter';
import type { RateLimitTier } from './tiers';

/** The columns a statement that spends a point must select (from `spent`), for `decide`. */
export interface SpentColumns {
  spent_points: number;
  /** Epoch ms (int8: a string unless a parser is installed). */
  spent_expire: string | number | null;
}

/**
 * One point of a principal's counter, spent by the statement that also does the request's read: one round trip
 * instead of two. `withClause` starts the statement and binds `values` as $1..$n, so the statement's own
 * parameters start at $(n+1); `withinLimit` is the condition the read is guarded by (a request over its limit reads
 * nothing); the statement selects `columns` and hands its row to `decide`.
 */
export interface SpendInStatement {
  withClause: string;
  values: unknown[];
  withinLimit: string;
  columns: string;
  decide(row: SpentColumns): RateLimitDecision;
}

/** The counter table (migration 012) in rate-limiter-flexible's layout, which `consume` also writes. */
const COUNTER_TABLE = 'rate_limit_counters';

/**
 * rate-limiter-flexible's RateLimiterPostgres upsert for one point (`_upsert(key, 1, window)`), word for word in
 * effect: a counter whose window has passed starts again at 1 with a new window; otherwise it adds 1 and keeps its
 * window. One statement on one row, so concurrent requests of every api instance count exactly, whichever of
 * `consume` and this they go through.
 */
export function spendOnePoint(
  options: { counterKey: string; windowSeconds: number; limit: number; tier: RateLimitTier },
  now = Date.now(),
): SpendInStatement {
  const { counterKey, windowSeconds, limit, tier } = options;
  return {
    withClause: `WITH spent AS (
      INSERT INTO ${COUNTER_TABLE} AS c (key, points, expire) VALUES ($1, 1, $2)
      ON CONFLICT (key) DO UPDATE SET
        points = CASE WHEN c.expire <= $3 THEN 1 ELSE c.points + 1 END,
        expire = CASE WHEN c.expire <= $3 THEN $2 ELSE c.expire END
      RETURNING points, expire
    )`,
    values: [counterKey, now + windowSeconds * 1000, now, limit],
    withinLimit: '(SELECT points FROM spent) <= $4',
    columns: 'spent.points AS spent_points, spent.expire AS spent_expire',
    decide(row) {
      const spentPoints = Number(row.spent_points);
      const msBeforeNext = row.spent_expire === null ? -1 : Math.max(Number(row.spent_expire) - Date.now(), 0);
      return decision({ tier, limit, windowSeconds }, spentPoints, msBeforeNext);
    },
  };
}

/** A request's outcome from the points its window has spent, its own included (what `consume` also answers). */
export function decision(
  limits: { tier: RateLimitTier; limit: number; windowSeconds: number },
  spentPoints: number,
  msBeforeNext: number,
): RateLimitDecision {
  const { tier, limit, windowSeconds } = limits;
  return {
    allowed: spentPoints <= limit,
    tier,
    limit,
    remaining: Math.max(0, limit - spentPoints),
    // msBeforeNext is -1 for a counter without expiry, which a positive window never produces.
    resetSeconds: Math.max(0, Math.ceil(msBeforeNext / 1000)),
    windowSeconds,
  };
}
