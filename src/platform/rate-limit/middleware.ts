import type { NextFunction, Request, Response } from 'express';
import { PLATFORM_ERRORS } from '../errors';
import { HttpError, structuredError } from '../http/errors';
import type { RateLimitDecision, TieredLimiter } from './limiter';
import type { RateLimitPrincipal } from './tiers';

export interface RateLimitMiddlewareDeps {
  limiter: TieredLimiter;
  /** Whose budget the request spends (its account), as an earlier middleware left it (e.g. on res.locals). */
  principalOf(res: Response): RateLimitPrincipal;
  /** What the 429's message calls the limit and what it counts (default: "Rate limit", "requests"). */
  describedAs?: RateLimitDescription;
}

/**
 * The 429's words: the limit's name, what it counts, and whose budget it is (default: the account's, shared by all
 * its keys; a limit per client address or per payer says so).
 */
export interface RateLimitDescription {
  limit: string;
  counts: string;
  whose?: string;
}

/** IETF draft-6 headers (the form clients and gateways parse most widely), see notes/market-data.md §2.1. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
    'RateLimit-Policy': `${decision.limit};w=${decision.windowSeconds}`,
  };
}

/**
 * A middleware generic over the route's parameters (like requireScope's check): placed before a handler, it leaves
 * `req.params` typed from the path.
 */
export type RateLimitCheck = <Params>(req: Request<Params>, res: Response, next: NextFunction) => Promise<void>;

/**
 * Puts the decision's headers on `res` before anything else runs, so every later answer carries them (200s, 400s,
 * 404s from handlers, and the 429 itself); throws the 429 when the request is over its limit.
 */
export function applyRateLimitDecision(
  res: Response,
  decision: RateLimitDecision,
  describedAs: RateLimitDescription = { limit: 'Rate limit', counts: 'requests' },
): void {
  res.set(rateLimitHeaders(decision));
  if (decision.allowed) return;
  // Retry-After must be a positive integer: a window that resets within the current second still says 1.
  const retryAfterSeconds = Math.max(1, decision.resetSeconds);
  const message =
    `${describedAs.limit} of ${decision.limit} ${describedAs.counts} per ${decision.windowSeconds} s exceeded for ` +
    `${describedAs.whose ?? 'this account (all its API keys share it)'}; retry in ${retryAfterSeconds} s`;
  const { body } = structuredError(PLATFORM_ERRORS.RATE_LIMITED, message, {
    tier: decision.tier,
    limit: decision.limit,
    windowSeconds: decision.windowSeconds,
    retryAfterSeconds,
  });
  throw new HttpError(429, body, { 'Retry-After': String(retryAfterSeconds) });
}

/** Spends one point of the caller's budget (its account's) per request: see applyRateLimitDecision. */
export function createRateLimitMiddleware(deps: RateLimitMiddlewareDeps): RateLimitCheck {
  return async (_req, res, next) => {
    applyRateLimitDecision(res, await deps.limiter.consume(deps.principalOf(res)), deps.describedAs);
    next();
  };
}
