import { Router, type RequestHandler } from 'express';
import { HttpError, structuredError } from '../../platform/http/errors';
import { rateLimitHeaders } from '../../platform/rate-limit/middleware';
import type { ChainCapability } from '../../screening';
import type { MarketStore } from '../store/market-candles';
import type { TieredLimiter } from '../../platform/rate-limit/limiter';
import { createRateLimitMiddleware } from '../../platform/rate-limit/middleware';
import { createCandlesRouter } from './candles-route';
import { gzipLargeJson } from './gzip-json';
import { createCapabilitiesRouter, type LiveSyncInfo } from './capabilities-route';
import { principalOf } from './principal';
import { requireScope } from '../../identity';
import { createQueryRouter } from './query-route';
import { PLATFORM_ERRORS } from '../../platform/errors';

export interface MarketRouterDeps {
  market: MarketStore;
  limiter: TieredLimiter;
  liveSync: LiveSyncInfo | null;
  /** The chains the capabilities route lists (the screening's `chainCapabilities` port). */
  chains: () => ChainCapability[];
}

/**
 * Market data, capabilities and the unified query (mounted on /api/v1): an API key (Bearer), then
 * one point of its per-minute limit (candles: in their own statement), then the route. Every answer after
 * authentication carries the RateLimit-* headers, errors included.
 */
export function createMarketRouter(deps: MarketRouterDeps, authenticate: RequestHandler): Router {
  const router = Router();
  const paths = ['/market-data', '/capabilities', '/query'];
  router.use(paths, gzipLargeJson(), countFailedAuthentication(deps.limiter, authenticate));
  // Candles spend their point in the statement that reads them (candles-route.ts), so they come before the others'.
  router.use(createCandlesRouter({ market: deps.market, limiter: deps.limiter, principalOf }));
  router.use(paths, createRateLimitMiddleware({ limiter: deps.limiter, principalOf }), requireScope('read'));
  router.use(createCapabilitiesRouter(deps));
  router.use(createQueryRouter(deps));
  return router;
}

/**
 * A request without a valid key has no key to count against, so its address does, at the free
 * tier: the 401 still carries RateLimit headers, and an address that keeps guessing keys gets 429
 * (with Retry-After) instead of a fresh 401 each time.
 */
function countFailedAuthentication(limiter: TieredLimiter, authenticate: RequestHandler): RequestHandler {
  return async (req, res, next) => {
    try {
      await authenticate(req, res, next);
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 401) throw err;
      const decision = await limiter.consume({ key: `ip:${req.ip ?? 'unknown'}:failed-auth`, tier: 'free' });
      res.set(rateLimitHeaders(decision));
      if (decision.allowed) throw err;
      const retryAfterSeconds = Math.max(1, decision.resetSeconds);
      const { body } = structuredError(
        PLATFORM_ERRORS.RATE_LIMITED,
        `Too many requests without a valid API key from this address; retry in ${retryAfterSeconds} s`,
        {
          tier: decision.tier,
          limit: decision.limit,
          windowSeconds: decision.windowSeconds,
          retryAfterSeconds,
        },
      );
      throw new HttpError(429, body, { 'Retry-After': String(retryAfterSeconds) });
    }
  };
}
