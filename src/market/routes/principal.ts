import type { Response } from 'express';
import { currentUser } from '../../identity';
import type { RateLimitPrincipal } from '../../platform/rate-limit/tiers';

/**
 * One budget per account: every key of an account and its dashboard sessions spend from the same counter, so
 * more keys never mean more requests. The limit a request is checked against is its key's tier (a session, which
 * has no key, the free tier). Ids only, never the secret: the counter table stores this string.
 */
export function principalOf(res: Response): RateLimitPrincipal {
  const user = currentUser(res);
  const key = `account:${user.id}`;
  if (user.apiKey) return { key, tier: user.apiKey.rateLimitTier, requestsPerMinute: user.apiKey.requestsPerMinute };
  return { key, tier: 'free' };
}
