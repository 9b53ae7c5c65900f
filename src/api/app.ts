import express, { type Express } from 'express';
import type { Pool } from 'pg';
import { createAuthenticate, type AuthDeps } from '../auth/authenticate';
import type { Logger } from '../logger';
import { createErrorHandler, unknownRoute } from './errors';
import { refuseUnsafeInput } from './refuse-unsafe-input';
import { requireUtf8 } from './unsafe-input';
import { requestIdAndAccessLog } from './request-id';
import { createApiKeysRouter } from './routes/api-keys';
import { createCreditsRouter } from './routes/credits';
import { createScreeningJobsRouter, type ScreeningRouterDeps } from './routes/screening-jobs';
import { createSyncAnalyzeRouter } from './routes/sync-analyze';
import type { CreditStore } from '../db/credits';
import { createBillingRouter, type BillingRouterDeps } from './routes/billing';
import { createPackagesRouter } from './routes/packages';
import { createClerkWebhookRouter } from './routes/webhooks/clerk';
import { createPayFastWebhookRouter, type PayFastWebhookDeps } from './routes/webhooks/payfast';
import { createPayPalWebhookRouter, type PayPalWebhookDeps } from './routes/webhooks/paypal';
import type { ClerkVerifier } from '../webhooks/clerk/verifier';
import { createActivityRouter } from './routes/activity';
import { createX402ReportsRouter, type X402RouterDeps } from './routes/x402-reports';
import { createActivityWebhookRouter, type ActivityWebhookDeps } from './routes/webhooks/activity';
import { createMarketRouter, type MarketRouterDeps } from './market/market-router';
import { createOpenApiRouter } from './openapi/openapi-router';
import { createDocsRouter } from './docs/docs-router';
import { createDashboardRouter, type DashboardRouterDeps } from './dashboard/dashboard-router';
import { createPayFastRefundsRouter, type PayFastRefundRouterDeps } from './routes/payfast-refunds';
import type { Check } from '../health/checks';
import { createHealthRouter } from '../health/health-router';
import type { ApiMetrics } from '../metrics/api-metrics';
import { createMetricsRouter } from '../metrics/metrics-router';
import { webhookDeliveryMetrics } from '../metrics/webhook-delivery-metrics';

export interface AppDeps extends AuthDeps, ScreeningRouterDeps, PayPalWebhookDeps, BillingRouterDeps, ActivityWebhookDeps {
  pool: Pool;
  credits: CreditStore;
  log: Logger;
  syncAnalyzeWaitMs: number;
  verifyClerk?: ClerkVerifier;
  x402: X402RouterDeps;
  marketData: MarketRouterDeps;
  dashboard: DashboardRouterDeps;
  recordPayFastRefund: PayFastRefundRouterDeps['recordPayFastRefund'];
  creditedPayments: PayFastRefundRouterDeps['creditedPayments'];
  payfast: Omit<PayFastWebhookDeps, 'startEventWorkflow' | 'webhookEvents' | 'log'>;
  /** Express `trust proxy`: which hops may set X-Forwarded-For (req.ip feeds the PayFast source check). */
  trustProxy: boolean | number | string;
  /** This process's Prometheus counters (its registry is served at /metrics). */
  metrics: ApiMetrics;
  /** What /readyz asks: each dependency's check. */
  readiness: Record<string, Check>;
  config: ScreeningRouterDeps['config'] & BillingRouterDeps['config'];
}

/** Builds the HTTP app from its dependencies; nothing here reads the environment or opens connections. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.trustProxy);
  // Before everything else, so every answer carries X-Request-Id, its access line and its HTTP metric.
  app.use(requestIdAndAccessLog(deps.log, deps.metrics.httpRequest));
  app.use(webhookDeliveryMetrics(deps.metrics));

  // Webhooks first: they verify signatures over the raw bytes, which express.json would consume.
  app.use(createActivityWebhookRouter(deps));
  app.use(createClerkWebhookRouter(deps));
  app.use(createPayPalWebhookRouter(deps));
  app.use(createPayFastWebhookRouter({ ...deps.payfast, startEventWorkflow: deps.startEventWorkflow, webhookEvents: deps.webhookEvents, log: deps.log }));

  app.use(express.json({ limit: '256kb', verify: requireUtf8 }));
  // Text Postgres cannot store, prototype keys, runaway nesting, non-UTF-8 queries: 400 before any route reads them.
  app.use(refuseUnsafeInput);
  app.use(createPackagesRouter(deps));
  // Paid per request in USDC (x402), no account: mounted before the authenticated /api/v1 router.
  app.use(createX402ReportsRouter(deps.x402));

  // The account dashboard (HTML + bundle from memory) at /app; it calls the same /api/v1 routes as any client.
  app.use(createDashboardRouter(deps.dashboard));

  // Operators: liveness, readiness (Postgres, Temporal, a polling worker) and Prometheus metrics.
  app.use(createHealthRouter(deps.readiness));
  app.use(createMetricsRouter(deps.metrics.registry));
  app.get('/health', async (_req, res) => {
    await deps.pool.query('SELECT 1');
    res.json({ success: true, data: { status: 'ok' } });
  });

  // The machine-readable contract, public: mounted before the authenticated /api/v1 routers.
  app.use(createOpenApiRouter({ maxCrawlTimeoutMs: deps.config.CRAWL_TIMEOUT_MAX_MS }));

  const authenticate = createAuthenticate(deps);
  // Market data has its own per-key rate limit, so it is mounted ahead of the general /api/v1 router.
  app.use('/api/v1', createMarketRouter(deps.marketData, authenticate));
  const v1 = express.Router();
  v1.use(authenticate);
  v1.use(createScreeningJobsRouter(deps));
  v1.use(createSyncAnalyzeRouter({ ...deps, waitMs: deps.syncAnalyzeWaitMs }));
  v1.use(createCreditsRouter(deps));
  v1.use(createApiKeysRouter(deps));
  v1.use(createBillingRouter(deps));
  v1.use(createPayFastRefundsRouter(deps));
  v1.use(createActivityRouter(deps));
  app.use('/api/v1', v1);

  // Swagger UI over that document (assets from node_modules, nothing from the network).
  app.use(createDocsRouter());

  app.use(unknownRoute);
  app.use(createErrorHandler(deps.log));
  return app;
}
