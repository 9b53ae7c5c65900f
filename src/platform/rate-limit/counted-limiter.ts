import type { RateLimitDecision, TieredLimiter } from './limiter';

/**
 * The same limiter, counting every refusal by tier (both the per-account budget and addresses guessing keys go through
 * it).
 */
export function countingRejections(
  limiter: TieredLimiter,
  metrics: { rateLimitRejected(tier: string): void },
): TieredLimiter {
  const counted = (decision: RateLimitDecision) => {
    if (!decision.allowed) metrics.rateLimitRejected(decision.tier);
    return decision;
  };
  const { spendInStatement } = limiter;
  return {
    consume: async (principal) => counted(await limiter.consume(principal)),
    ...(spendInStatement && {
      spendInStatement: (principal) => {
        const spend = spendInStatement(principal);
        return { ...spend, decide: (row) => counted(spend.decide(row)) };
      },
    }),
  };
}
