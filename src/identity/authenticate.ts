import type { RequestHandler, Response } from 'express';
import { authenticationRequired, flatError } from '../platform/http/errors';
import { IDENTITY_ERRORS } from './error-codes';
import type { User, UserStore } from './users-store';
import { InvalidSessionTokenError, looksLikeJwt, type ClerkSession, type VerifySessionToken } from './clerk-session';
import type { CredentialKind, IdentityCache } from './identity-cache';
import type { Member } from './team';

export interface AuthDeps {
  users: UserStore;
  /** Absent when CLERK_JWT_KEY is not configured: session tokens are then refused, API keys still work. */
  verifySessionToken?: VerifySessionToken;
  /** This api instance's resolved credentials (AUTH_CACHE_TTL_MS); absent: every request reads Postgres. */
  identityCache?: IdentityCache;
}

/** The authenticated user of this request (set by `authenticate`). */
export function currentUser(res: Response): User {
  const user = res.locals.user as User | undefined;
  if (!user) throw authenticationRequired();
  return user;
}

/** The member acting for the account in this request (see team.ts). */
export function currentMember(res: Response): Member {
  const member = currentUser(res).member;
  if (!member) throw authenticationRequired();
  return member;
}

export function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1] ?? null;
}

/** Credentials as presented: an API key, or a bearer token that is an API key or a Clerk session JWT. */
export interface Credentials {
  apiKey?: string;
  bearer?: string;
}

/** Who presented the credentials, and until when they hold (a session JWT's `exp`, in seconds; keys do not expire). */
export interface Identity {
  user: User;
  expiresAt?: number;
}

/**
 * Resolves credentials to an active account, the member acting for it (`user.member`), and the credentials' expiry,
 * or null. An API key acts for its account as the member who made it; a session token as its person, in the
 * organization its org claim names or else in the person's own account. A verified session
 * provisions its user (and organization, and membership) on first sight; without a verifier (no CLERK_JWT_KEY)
 * session tokens resolve to null, API keys still work. With `identityCache`, a key or session token resolved in the
 * last AUTH_CACHE_TTL_MS is answered without Postgres (a session no longer than its `exp`); see identity-cache.ts for
 * why a revoked key still fails at once.
 */
export function createIdentityResolver({ users, verifySessionToken, identityCache }: AuthDeps) {
  const cached = (kind: CredentialKind, credential: string, load: () => Promise<Identity | null>) =>
    identityCache ? identityCache.resolve(kind, credential, load) : load();

  // findByApiKey stamps last_used_at at most once a minute; cached, it runs at least once per TTL (at most 60 s)
  // while the key is in use, so the stamp stays within about a minute of the last use.
  const byKey = (key: string) =>
    cached('api-key', key, async () => {
      const user = await users.findByApiKey(key);
      return user ? { user } : null;
    });

  // Cached too: a dashboard session otherwise costs an RSA verification and an upsert of its user per request.
  const bySession = (token: string, verify: VerifySessionToken) =>
    cached('session', token, async () => {
      let session: ClerkSession;
      try {
        session = verify(token);
      } catch (err) {
        if (err instanceof InvalidSessionTokenError) return null;
        throw err;
      }
      // The account is the token's organization (its member: the person), else the person's own.
      const user = session.org
        ? await users.provisionOrgSession({ clerkUserId: session.userId, email: session.email, org: session.org })
        : await users.provisionClerkUser(session.userId, session.email);
      return user?.status === 'active' ? { user, expiresAt: session.expiresAt } : null;
    });

  return async ({ apiKey, bearer }: Credentials): Promise<Identity | null> => {
    if (apiKey) return byKey(apiKey);
    if (!bearer) return null;
    if (!looksLikeJwt(bearer)) return byKey(bearer);
    if (!verifySessionToken) return null;
    return bySession(bearer, verifySessionToken);
  };
}

/** The user behind the credentials, or null (see createIdentityResolver). */
export function createCredentialResolver(deps: AuthDeps) {
  const resolve = createIdentityResolver(deps);
  return async (credentials: Credentials): Promise<User | null> => (await resolve(credentials))?.user ?? null;
}

/**
 * Accepts `x-api-key: <key>`, `Authorization: Bearer <key>` (market data style) or
 * `Authorization: Bearer <Clerk session JWT>`.
 */
export function createAuthenticate(deps: AuthDeps): RequestHandler {
  const resolve = createCredentialResolver(deps);
  return async (req, res, next) => {
    const user = await resolve({
      apiKey: req.get('x-api-key')?.trim(),
      bearer: bearerToken(req.get('authorization')) ?? undefined,
    });
    if (!user) throw authenticationRequired();
    res.locals.user = user;
    next();
  };
}

export const requireAdmin: RequestHandler = (_req, res, next) => {
  if (currentUser(res).role !== 'admin') {
    throw flatError(IDENTITY_ERRORS.INSUFFICIENT_PERMISSIONS, 'Admin privileges required');
  }
  next();
};
