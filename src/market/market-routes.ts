import { type RequestHandler, Router } from 'express';
import type { FeatureApiRuntime, FeatureRoutes } from '../platform/features/feature-runtime';
import { countingRejections } from '../platform/rate-limit/counted-limiter';
import { createTieredLimiter } from '../platform/rate-limit/limiter';
import { rateLimitRejections } from '../platform/metrics/rate-limit-rejections';
import type { MarketConfig } from './config';
import { liveSyncPlan } from './domain/live/live-sync-plan';
import type { LiveSyncInfo } from './routes/capabilities-route';
import { createMarketRouter } from './routes/market-router';
import { createMarketStore } from './store/market-candles';

/** What GET /api/v1/capabilities says of the live sync: its exchange, our symbols and its poll; null when off. */
function liveSyncSummary(config: MarketConfig): LiveSyncInfo | null {
  const plan = liveSyncPlan(config);
  return plan
    ? { connector: plan.connector, symbols: plan.symbols.map((s) => s.symbol), pollSeconds: plan.pollSeconds }
    : null;
}

/**
 * Market data, capabilities and the unified query under /api/v1. They authenticate themselves (each request spends a
 * point of its key's per-minute limit, and an address guessing keys is counted too), so they are mounted ahead of the
 * general /api/v1 router; the accounts' authentication is read from the ports when a request comes.
 */
export function marketRoutes(runtime: FeatureApiRuntime): FeatureRoutes {
  const config = runtime.config as MarketConfig;
  const rejections = rateLimitRejections.register(runtime.metrics);
  const authenticate: RequestHandler = (req, res, next) => runtime.ports.authenticate(req, res, next);
  const router = Router();
  router.use(
    '/api/v1',
    createMarketRouter(
      {
        market: createMarketStore(runtime.pool),
        // Counters live in Postgres so every api instance enforces one shared per-key budget.
        limiter: countingRejections(createTieredLimiter({ store: 'postgres', pool: runtime.pool }), {
          rateLimitRejected: (tier) => rejections.inc({ tier }),
        }),
        liveSync: liveSyncSummary(config),
        // Read when a request comes: the screening provides it (src/market/ports.ts).
        chains: () => runtime.ports.chainCapabilities(),
      },
      authenticate,
    ),
  );
  return { public: router };
}
