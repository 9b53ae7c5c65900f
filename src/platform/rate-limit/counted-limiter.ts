import type { TieredLimiter } from './limiter';

/**
 * The same limiter, counting every refusal by tier (both the per-account budget and addresses guessing keys go through
 * it).
 */
export function countingRejections(
  limiter: TieredLimiter,
  metrics: { rateLimitRejected(tier: string): void },
): TieredLimiter {
  return {
    async consume(principal) {
      const decision = await limiter.consume(principal);
      if (!decision.allowed) metrics.rateLimitRejected(decision.tier);
      return decision;
    },
  };
}
