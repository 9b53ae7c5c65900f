import type { ApiKeyRecord } from './key-types';

const TIER_RATES: Record<string, string> = { free: '60 a minute', pro: '300 a minute' };

/** "free (60 a minute)": the key's market-data rate limit in words. */
export function rateLimitWords(limit: ApiKeyRecord['rateLimit']): string {
  const enterpriseRate = limit.requestsPerMinute ? `${limit.requestsPerMinute} a minute` : 'custom';
  const rate = limit.tier === 'enterprise' ? enterpriseRate : TIER_RATES[limit.tier];
  return rate ? `${limit.tier} (${rate})` : limit.tier;
}
