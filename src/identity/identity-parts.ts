import type { FeatureRuntime } from '../platform/features/feature-runtime';
import { perRuntime } from '../platform/features/per-runtime';
import { createClerkSessionVerifier } from './clerk-session';
import type { IdentityConfig } from './config';
import { createIdentityCache } from './identity-cache';
import { createUserStore } from './users-store';

/**
 * What one api process holds once about its callers, shared by authentication, the sockets' handshakes and the
 * routes that change credentials: the user store, Clerk's session check (none without CLERK_JWT_KEY: session tokens
 * are refused, API keys still work), and the cache of resolved credentials. The cache serves nothing until the
 * account event relay is listening: it is what drops entries changed by other instances.
 */
export const identityParts = perRuntime((runtime: FeatureRuntime) => {
  const config = runtime.config as IdentityConfig;
  return {
    users: createUserStore(runtime.pool),
    verifySessionToken: config.CLERK_JWT_KEY
      ? createClerkSessionVerifier({
          publicKeyPem: config.CLERK_JWT_KEY,
          authorizedParties: config.CLERK_AUTHORIZED_PARTIES,
          issuer: config.CLERK_ISSUER,
        })
      : undefined,
    identityCache: createIdentityCache({ ttlMs: config.AUTH_CACHE_TTL_MS }),
  };
});
