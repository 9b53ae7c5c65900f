/** GET /api/v1/api-keys item (src/db/users.ts ApiKeyRecord): never the key itself, only its prefix. */
export interface ApiKeyRecord {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  rateLimit: { tier: 'free' | 'pro' | 'enterprise'; requestsPerMinute: number | null };
}

/** POST /api/v1/api-keys answer: the record plus the full key, the only time it is ever sent. */
export interface CreatedApiKey extends ApiKeyRecord {
  key: string;
}

const TIER_RATES: Record<string, string> = { free: '60 a minute', pro: '300 a minute' };

/** "free (60 a minute)": the key's market-data rate limit in words. */
export function rateLimitWords(limit: ApiKeyRecord['rateLimit']): string {
  const rate = limit.tier === 'enterprise' ? (limit.requestsPerMinute ? `${limit.requestsPerMinute} a minute` : 'custom') : TIER_RATES[limit.tier];
  return rate ? `${limit.tier} (${rate})` : limit.tier;
}
