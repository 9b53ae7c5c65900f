import type { RequestHandler, Response } from 'express';
import { authenticationRequired, flatError } from '../api/errors';
import type { User, UserStore } from '../db/users';
import { InvalidSessionTokenError, looksLikeJwt, type VerifySessionToken } from './clerk-session';

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

function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1] ?? null;
}

/**
 * Accepts `x-api-key: <key>`, `Authorization: Bearer <key>` (market data style) or
 * `Authorization: Bearer <Clerk session JWT>`; a verified session provisions its user on first sight.
 */
export function createAuthenticate({ users, verifySessionToken }: AuthDeps): RequestHandler {
  return async (req, res, next) => {
    const apiKey = req.get('x-api-key')?.trim();
    const bearer = bearerToken(req.get('authorization'));
    let user: User | null = null;

    if (apiKey) {
      user = await users.findByApiKey(apiKey);
    } else if (bearer && looksLikeJwt(bearer)) {
      if (!verifySessionToken) throw authenticationRequired();
      try {
        const session = verifySessionToken(bearer);
        user = await users.provisionClerkUser(session.userId, session.email);
      } catch (err) {
        if (err instanceof InvalidSessionTokenError) throw authenticationRequired();
        throw err;
      }
      if (user.status !== 'active') user = null;
    } else if (bearer) {
      user = await users.findByApiKey(bearer);
    }

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
