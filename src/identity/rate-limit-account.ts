import type { Response } from 'express';
import type { RateLimitTier } from '../platform/rate-limit/tiers';
import { currentUser } from './authenticate';

/** The authenticated caller's account and its key's tier (a session is `free`), for per-account budgets. */
export function rateLimitAccount(res: Response): { id: string; tier: RateLimitTier } {
  const user = currentUser(res);
  return { id: user.id, tier: user.apiKey?.rateLimitTier ?? 'free' };
}
