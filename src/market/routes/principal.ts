import type { Response } from 'express';
import { currentUser } from '../../identity';
import type { RateLimitPrincipal } from '../../platform/rate-limit/tiers';

/**
 * Limits are per API key (its tier). A dashboard session has no key: it counts per user at the
 * free tier. Ids only, never the secret: the counter table stores this string.
 */
export function principalOf(res: Response): RateLimitPrincipal {
  const user = currentUser(res);
  if (user.apiKey)
    return {
      key: `key:${user.apiKey.id}`,
      tier: user.apiKey.rateLimitTier,
      requestsPerMinute: user.apiKey.requestsPerMinute,
    };
  return { key: `user:${user.id}`, tier: 'free' };
}
