/** Rate-limit tiers: how many requests per minute a request's key may spend from its principal's budget. */
export type RateLimitTier = 'free' | 'pro' | 'enterprise';

export interface RateLimitPrincipal {
  /**
   * Whose budget the request spends: a stable id such as `account:<user id>` (every key of an account shares it);
   * never a secret, because it is stored in the counter table.
   */
  key: string;
  tier: RateLimitTier;
  /** The enterprise key's own figure (api_keys.requests_per_minute); ignored for the other tiers. */
  requestsPerMinute?: number | null;
}

export const TIER_REQUESTS_PER_MINUTE = { free: 60, pro: 300 } as const;

export function requestsPerMinute(principal: RateLimitPrincipal): number {
  if (principal.tier !== 'enterprise') return TIER_REQUESTS_PER_MINUTE[principal.tier];
  const custom = principal.requestsPerMinute;
  if (typeof custom === 'number' && Number.isFinite(custom) && custom >= 1) return Math.floor(custom);
  // The migration requires a figure for every enterprise key, so a missing or unusable one is a data
  // error. It must not mean "unlimited" (one misconfigured key could then flood the API), and it
  // should not lock a paying customer out either: pro's figure is the least surprising floor.
  return TIER_REQUESTS_PER_MINUTE.pro;
}
