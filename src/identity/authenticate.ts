import type { RequestHandler, Response } from 'express';
import { authenticationRequired, flatError } from '../platform/http/errors';
import type { User, UserStore } from './users-store';
import { InvalidSessionTokenError, looksLikeJwt, type ClerkSession, type VerifySessionToken } from './clerk-session';

export interface AuthDeps {
  users: UserStore;
  /** Absent when CLERK_JWT_KEY is not configured: session tokens are then refused, API keys still work. */
  verifySessionToken?: VerifySessionToken;
}

/** The authenticated user of this request (set by `authenticate`). */
export function currentUser(res: Response): User {
  const user = res.locals.user as User | undefined;
  if (!user) throw authenticationRequired();
  return user;
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
 * Resolves credentials to an active user and the credentials' expiry, or null. A verified session
 * provisions its user on first sight; without a verifier (no CLERK_JWT_KEY) session tokens resolve to
 * null, API keys still work.
 */
export function createIdentityResolver({ users, verifySessionToken }: AuthDeps) {
  return async ({ apiKey, bearer }: Credentials): Promise<Identity | null> => {
    const byKey = async (key: string) => {
      const user = await users.findByApiKey(key);
      return user ? { user } : null;
    };
    if (apiKey) return byKey(apiKey);
    if (!bearer) return null;
    if (!looksLikeJwt(bearer)) return byKey(bearer);
    if (!verifySessionToken) return null;
    let session: ClerkSession;
    try {
      session = verifySessionToken(bearer);
    } catch (err) {
      if (err instanceof InvalidSessionTokenError) return null;
      throw err;
    }
    const user = await users.provisionClerkUser(session.userId, session.email);
    return user.status === 'active' ? { user, expiresAt: session.expiresAt } : null;
  };
}

export type ResolveIdentity = ReturnType<typeof createIdentityResolver>;

/** The user behind the credentials, or null (see createIdentityResolver). */
export function createCredentialResolver(deps: AuthDeps) {
  const resolve = createIdentityResolver(deps);
  return async (credentials: Credentials): Promise<User | null> => (await resolve(credentials))?.user ?? null;
}

export type ResolveCredentials = ReturnType<typeof createCredentialResolver>;

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
    throw flatError(403, 'Admin privileges required', 'INSUFFICIENT_PERMISSIONS');
  }
  next();
};
