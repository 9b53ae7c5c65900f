import { Router, type RequestHandler } from 'express';
import type { MarketStore } from '../../db/market-candles';
import type { TieredLimiter } from '../rate-limit/limiter';
import { createRateLimitMiddleware } from '../rate-limit/middleware';
import { createCandlesRouter } from './candles-route';
import { createCapabilitiesRouter, type LiveSyncInfo } from './capabilities-route';
import { principalOf } from './principal';
import { createQueryRouter } from './query-route';

export interface MarketRouterDeps {
  market: MarketStore;
  limiter: TieredLimiter;
  liveSync: LiveSyncInfo | null;
}

/**
 * Market data, capabilities and the unified query (mounted on /api/v1): an API key (Bearer), then
 * one point of its per-minute limit, then the route. Every answer after authentication carries the
 * RateLimit-* headers, errors included.
 */
export function createMarketRouter(deps: MarketRouterDeps, authenticate: RequestHandler): Router {
  const router = Router();
  router.use(['/market-data', '/capabilities', '/query'], authenticate, createRateLimitMiddleware({ limiter: deps.limiter, principalOf }));
  router.use(createCandlesRouter(deps));
  router.use(createCapabilitiesRouter(deps));
  router.use(createQueryRouter(deps));
  return router;
}
