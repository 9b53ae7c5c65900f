import { Router } from 'express';
import { createCreditStore } from '../billing';
import type { AccountEventObserver } from '../platform/events/account-event';
import type { FeatureApiRuntime, FeatureRoutes, FeatureRuntime } from '../platform/features/feature-runtime';
import { createApiKeysRouter } from './api-keys-routes';
import { createAuthenticate, createIdentityResolver } from './authenticate';
import { createClerkWebhookRouter } from './clerk-webhook-route';
import { createClerkVerifier, type ClerkVerifier } from './clerk-webhook-verifier';
import type { IdentityConfig } from './config';
import { identityParts } from './identity-parts';
import { createTeamRouter } from './team-routes';
import { createTeamStore } from './team-store';

/** What tests replace in identity's api parts (FeatureRuntime.overrides, by these names). */
export interface IdentityOverrides {
  /** Clerk's Svix check with the test's own secret and clock. */
  verifyClerk?: ClerkVerifier;
}

/** Who is calling, for /api/v1 (the platform's `authenticate` port) and for the sockets' handshakes. */
export function identityPorts(runtime: FeatureRuntime) {
  const parts = identityParts(runtime);
  return { authenticate: createAuthenticate(parts), socketIdentity: createIdentityResolver(parts) };
}

/**
 * Clerk's webhook (its Svix signature checked over the raw bytes; 503 without CLERK_WEBHOOK_SECRET), and the
 * account's API keys and team under /api/v1: a key revoked or a member changed here is dropped from this
 * instance's cache before the answer (other instances drop theirs on the account event).
 */
export function identityRoutes(runtime: FeatureApiRuntime): FeatureRoutes {
  const config = runtime.config as IdentityConfig;
  const { identityCache, users } = identityParts(runtime);
  const verifyClerk =
    (runtime.overrides as IdentityOverrides).verifyClerk ??
    (config.CLERK_WEBHOOK_SECRET ? createClerkVerifier({ secret: config.CLERK_WEBHOOK_SECRET }) : undefined);
  const v1 = Router();
  v1.use(createApiKeysRouter({ users, credits: createCreditStore(runtime.pool), config, identityCache }));
  v1.use(createTeamRouter({ teams: createTeamStore(runtime.pool), identityCache }));
  return {
    webhooks: createClerkWebhookRouter({
      verifyClerk,
      startEventWorkflow: runtime.startEventWorkflow,
      log: runtime.log,
    }),
    v1,
  };
}

/**
 * Credentials changed elsewhere are dropped from the cache on the event's notice, and again on its row (which also
 * catches a notice lost with its connection), before the sockets re-check theirs; while the relay is not listening
 * the cache serves nothing.
 */
export function identityAccountEvents(runtime: FeatureApiRuntime): AccountEventObserver {
  const { identityCache } = identityParts(runtime);
  return {
    notified: (notice) => identityCache.observe(notice),
    event: (event) => identityCache.observe(event),
    listening: (listening) => identityCache.setListening(listening),
  };
}
