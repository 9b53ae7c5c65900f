import { z } from 'zod';
import { configSlice, type SliceConfig } from '../platform/config/config-slice';

/** What a production deployment that accepts Clerk session tokens must pin them to. */
const CLERK_PRODUCTION_PINS = ['CLERK_ISSUER', 'CLERK_AUTHORIZED_PARTIES'] as const;
const isUnset = (value: string | readonly string[] | undefined) => value === undefined || value.length === 0;

/** How callers authenticate (Clerk sessions, API keys), the bootstrap admin, and Clerk's user webhook. */
const variables = z.object({
  CLERK_JWT_KEY: z.string().min(1).optional(),
  /**
   * The `iss` every Clerk session token must carry (the instance's Frontend API URL, e.g.
   * https://clerk.example.com); unset = not checked. Required in production when CLERK_JWT_KEY is set.
   */
  CLERK_ISSUER: z.url({ error: 'CLERK_ISSUER must be a URL, e.g. https://clerk.example.com' }).optional(),
  CLERK_AUTHORIZED_PARTIES: z
    .string()
    .optional()
    .transform((v) =>
      v
        ? v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : [],
    ),
  BOOTSTRAP_ADMIN_API_KEY: z.string().min(24, 'BOOTSTRAP_ADMIN_API_KEY must be at least 24 characters').optional(),
  /** Active (unrevoked) API keys one account may hold; creating one more is 409 API_KEY_LIMIT_REACHED. */
  MAX_ACTIVE_API_KEYS_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000).default(20),
  /**
   * How long an api instance answers an API key or session token it resolved without asking Postgres (0 = off). A
   * revocation or deactivation still holds at once: the cache drops on the outbox's credential events
   * (identity-cache.ts). At most a minute, so last_used_at keeps its one-minute resolution.
   */
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  /** Clerk's webhook signing secret (`whsec_…`); deliveries are refused with 503 until it is set. */
  CLERK_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, 'a Clerk signing secret (whsec_ followed by base64)')
    .optional(),
});

export const identityConfigSlice = configSlice({
  variables,
  problems(config, nodeEnv) {
    if (nodeEnv !== 'production') return [];
    const problems = config.CLERK_WEBHOOK_SECRET ? [] : ['CLERK_WEBHOOK_SECRET: required when NODE_ENV=production'];
    // A session token is accepted only from this Clerk instance (iss) and for our own front ends (azp), so
    // production refuses to start with a session key but without either (docs/configuration.md).
    const unpinned = config.CLERK_JWT_KEY ? CLERK_PRODUCTION_PINS.filter((name) => isUnset(config[name])) : [];
    return [
      ...problems,
      ...unpinned.map((name) => `${name}: required when NODE_ENV=production and CLERK_JWT_KEY is set`),
    ];
  },
});

export type IdentityConfig = SliceConfig<typeof identityConfigSlice>;
