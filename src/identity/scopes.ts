import type { NextFunction, Request, Response } from 'express';
import { AppError } from '../platform/errors';
import { IDENTITY_ERRORS } from './error-codes';
import { currentUser } from './authenticate';
import type { User } from './users-store';

/**
 * What an API key may do. Every authenticated route declares the one scope it needs (`requireScope`):
 * - `read`: polls, full responses, history, balance, who am I, lists, monitors and their alerts, subscriptions,
 *   the key list, market data;
 * - `screening`: submitting jobs (and the deprecated analyze endpoints), adding, deleting and re-screening monitors;
 * - `billing`: checkout, and for admins grants and refunds;
 * - `keys`: creating (with at most the creating key's own scopes) and revoking keys, and for admins key tiers.
 * Every key made before scopes existed, the bootstrap admin key and every Clerk session hold all of them; a key
 * created without `scopes` gets its creator's (all of them, for those).
 */
export const API_KEY_SCOPES = ['read', 'screening', 'billing', 'keys'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export class InsufficientScopeError extends AppError {
  constructor(readonly scope: ApiKeyScope) {
    super(
      IDENTITY_ERRORS.INSUFFICIENT_SCOPE,
      `This API key does not have the "${scope}" scope this request needs; ` +
        `create a key with it (scopes: ${API_KEY_SCOPES.join(', ')})`,
    );
  }
}

/** The caller's scopes: its key's, or all of them for a session (which acts for its whole user). */
export function scopesOf(user: User): readonly ApiKeyScope[] {
  return user.apiKey?.scopes ?? API_KEY_SCOPES;
}

/** The scopes in their canonical order, each once: how they are stored and answered. */
export function normalizeScopes(scopes: readonly ApiKeyScope[]): ApiKeyScope[] {
  return API_KEY_SCOPES.filter((s) => scopes.includes(s));
}

/**
 * A middleware generic over the route's parameters: placed before a handler, it leaves `req.params` typed from the
 * path (Express infers one parameter type for all of a route's handlers, and a plain RequestHandler would fix it).
 */
export type ScopeCheck = <Params>(req: Request<Params>, res: Response, next: NextFunction) => void;

/** 403 INSUFFICIENT_SCOPE unless the authenticated caller holds `scope`; runs after `authenticate`. */
export function requireScope(scope: ApiKeyScope): ScopeCheck {
  return (_req, res, next) => {
    if (!scopesOf(currentUser(res)).includes(scope)) throw new InsufficientScopeError(scope);
    next();
  };
}
