import { createHash } from 'node:crypto';
import type { Identity } from './authenticate';

/** What credentials are: an API key and a session JWT are cached apart, so neither is ever accepted as the other. */
export type CredentialKind = 'api-key' | 'session';

/** An outbox event as the realtime listener relays it (src/realtime): only who and what matter here. */
export interface IdentityEvent {
  event: string;
  userId: string;
  payload?: Record<string, unknown>;
}

/**
 * The internal outbox events after which what a cached identity carries may be wrong: a key revoked, an account
 * deactivated, a key's scopes or tier or a user's role, email or Clerk id changed, a member's role or status changed
 * (src/identity/functions/: 040_account-deactivated-events.sql, 070_api-key-revocation-events.sql,
 * 080_credential-change-events.sql, 120_teams.sql).
 */
export const IDENTITY_EVENTS: ReadonlySet<string> = new Set([
  'credentials_revoked',
  'credentials_changed',
  'account_deactivated',
]);

export interface IdentityCache {
  /**
   * The identity cached for these credentials, else what `load` resolves, kept for the TTL (a session no longer than
   * its `exp`). Only a found identity is kept: an unknown key is asked again every time.
   */
  resolve(kind: CredentialKind, credential: string, load: () => Promise<Identity | null>): Promise<Identity | null>;
  /**
   * Drops every entry of a user, as the account or as the member acting for one: the change was made by this process,
   * so it must hold here before the answer.
   */
  forgetUser(userId: string): void;
  /** Drops the entry of one API key (by its id; its owner is not known to the caller). */
  forgetKey(apiKeyId: string): void;
  /** Drops what an identity event (IDENTITY_EVENTS) makes stale; other events change nothing. */
  observe(event: IdentityEvent): void;
  /**
   * Whether the outbox listener is connected. While it is not, events from other processes cannot arrive, so nothing
   * is served from the cache or kept in it (every request reads Postgres); reconnecting turns it back on.
   */
  setListening(listening: boolean): void;
}

interface Entry {
  identity: Identity;
  expiresAtMs: number;
}

/** About 1 kB an entry: 10,000 active credentials per api instance is a few MB at most. */
export const MAX_ENTRIES = 10_000;

/**
 * Resolved credentials, per api instance, for `ttlMs` (AUTH_CACHE_TTL_MS; 0 = off). Keyed by the SHA-256 of the
 * credentials, never the credentials themselves. Bounded: past `maxEntries` the oldest entry goes.
 *
 * Why an entry cannot outlive a change: the process that makes the change (a key revoked through the API, a tier
 * set) drops its entries itself before it answers, and every change also writes an identity event into the
 * realtime outbox (a trigger in the changing transaction), which every api instance's listener relays to
 * `observe`. A lookup that was under way while an entry was dropped is not kept (the `generation` check), so a read
 * from before the change cannot be stored after it.
 */
export function createIdentityCache({
  ttlMs,
  maxEntries = MAX_ENTRIES,
  now = Date.now,
}: {
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
}): IdentityCache {
  const entries = new Map<string, Entry>();
  let listening = false;
  // Bumped by every drop: a lookup started before a drop must not store what it read.
  let generation = 0;

  const drop = (matches: (identity: Identity) => boolean) => {
    generation++;
    for (const [key, entry] of entries) if (matches(entry.identity)) entries.delete(key);
  };

  const store = (key: string, identity: Identity) => {
    const sessionEndMs = identity.expiresAt === undefined ? Number.POSITIVE_INFINITY : identity.expiresAt * 1000;
    const expiresAtMs = Math.min(now() + ttlMs, sessionEndMs);
    if (expiresAtMs <= now()) return;
    entries.delete(key);
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
    entries.set(key, { identity: freeze(identity), expiresAtMs });
  };

  return {
    async resolve(kind, credential, load) {
      if (ttlMs <= 0 || !listening) return load();
      const key = `${kind}:${createHash('sha256').update(credential, 'utf8').digest('base64')}`;
      const hit = entries.get(key);
      if (hit && hit.expiresAtMs > now()) return hit.identity;
      if (hit) entries.delete(key);
      const startedAt = generation;
      const identity = await load();
      if (identity && listening && generation === startedAt) store(key, identity);
      return identity;
    },
    forgetUser(userId) {
      drop((identity) => involves(identity, userId));
    },
    forgetKey(apiKeyId) {
      drop((identity) => identity.user.apiKey?.id === apiKeyId);
    },
    observe({ event, userId, payload }) {
      if (!IDENTITY_EVENTS.has(event)) return;
      const apiKeyId = payload?.apiKeyId;
      // A key's event names its owner at the time of the change; the key id also covers a key moved to another user.
      drop(
        (identity) => involves(identity, userId) || (apiKeyId !== undefined && identity.user.apiKey?.id === apiKeyId),
      );
    },
    setListening(value) {
      listening = value;
      if (!value) drop(() => true);
    },
  };
}

/**
 * Whether a change to `userId` touches what the identity carries: it is the account, or the person acting for it (a
 * member deactivated, or whose email changed, is seen in every team they act for; a membership change is announced
 * under the account, teams.sql).
 */
function involves(identity: Identity, userId: string): boolean {
  return identity.user.id === userId || identity.user.member?.id === userId;
}

/** One cached identity serves many requests at once: none of them may change it for the others. */
function freeze(identity: Identity): Identity {
  const { user } = identity;
  if (user.apiKey) Object.freeze(user.apiKey.scopes);
  if (user.apiKey) Object.freeze(user.apiKey);
  if (user.member) Object.freeze(user.member);
  Object.freeze(user);
  return Object.freeze(identity);
}
