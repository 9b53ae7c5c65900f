import express, { type Express } from 'express';
import { createCasesRouter, type CasesRouterDeps } from '../cases/cases-routes';
import type { Pool } from 'pg';
import { createAuthenticate, type AuthDeps } from '../identity/authenticate';
import type { Logger } from '../platform/logging/logger';
import { createErrorHandler, unknownRoute } from '../platform/http/errors';
import { refuseUnsafeInput } from '../platform/http/refuse-unsafe-input';
import { requireUtf8 } from '../platform/http/unsafe-input';
import { requestIdAndAccessLog } from '../platform/http/request-id';
import { createApiKeysRouter, type ApiKeysRouterDeps } from '../identity/api-keys-routes';
import { createTeamRouter, type TeamRouterDeps } from '../identity/team-routes';
import { createCreditsRouter } from '../billing/credits-routes';
import { createScreeningJobsRouter, type ScreeningRouterDeps } from '../screening/screening-jobs-routes';
import { createSyncAnalyzeRouter } from '../screening/sync-analyze-route';
import { createRescoreRouter, type OnRescored } from '../screening/rescore/rescore-route';
import type { Rescorer } from '../screening/rescore/rescore-job';
import type { CreditStore } from '../billing/credits-store';
import { createBillingRouter, type BillingRouterDeps } from '../billing/billing-routes';
import { createPackagesRouter } from '../billing/packages-routes';
import { createClerkWebhookRouter } from '../identity/clerk-webhook-route';
import { createPayFastWebhookRouter, type PayFastWebhookDeps } from '../billing/payfast/payfast-webhook-route';
import { createPayPalWebhookRouter, type PayPalWebhookDeps } from '../billing/paypal/paypal-webhook-route';
import type { ClerkVerifier } from '../identity/clerk-webhook-verifier';
import { createX402ReportsRouter, type X402RouterDeps } from '../x402/x402-reports-routes';
import { createMarketRouter, type MarketRouterDeps } from '../market/routes/market-router';
import { createOpenApiRouter } from './openapi/openapi-router';
import { createDocsRouter } from './docs/docs-router';
import { createPayFastRefundsRouter, type PayFastRefundRouterDeps } from '../billing/payfast/payfast-refunds-routes';
import type { Check } from '../platform/health/checks';
import { createPublicHealthRouter } from '../platform/health/health-router';
import { createMonitorsRouter, type MonitorsRouterDeps } from '../monitors';
import { type BatchRouterDeps, createBatchRouter, isBatchSubmit } from '../batches';
import type { ApiMetrics } from './metrics/api-metrics';
import { createJwksRouter } from '../platform/signing/jwks-route';
import type { SigningKeyRing } from '../platform/signing/key-ring';
import { webhookDeliveryMetrics } from '../platform/metrics/webhook-delivery-edge';
import { featureWebhookProviders } from './webhook-providers';
import type { TrustProxySetting } from '../platform/http/trust-proxy';
import type { FeatureRoutes } from '../platform/features/feature-runtime';

export interface AppDeps
  extends AuthDeps,
    ScreeningRouterDeps,
    PayPalWebhookDeps,
    BillingRouterDeps,
    Omit<BatchRouterDeps, 'config'> {
  pool: Pool;
  credits: CreditStore;
  /** The account's team (routes /api/v1/team). */
  teams: TeamRouterDeps['teams'];
  log: Logger;
  syncAnalyzeWaitMs: number;
  /** POST /kyt/job/:id/rescore: a stored answer scored again under a policy. */
  rescore: Rescorer;
  /** After a rescore: its case alert (src/cases). */
  onRescored?: OnRescored;
  verifyClerk?: ClerkVerifier;
  x402: X402RouterDeps;
  marketData: MarketRouterDeps;
  recordPayFastRefund: PayFastRefundRouterDeps['recordPayFastRefund'];
  creditedPayments: PayFastRefundRouterDeps['creditedPayments'];
  payfastRefundRecords: PayFastRefundRouterDeps['payfastRefundRecords'];
  payfast: Omit<PayFastWebhookDeps, 'startEventWorkflow' | 'webhookEvents' | 'log'>;
  /** Express `trust proxy`: which hops may set X-Forwarded-For (req.ip feeds the PayFast source check). */
  trustProxy: TrustProxySetting;
  /** This process's Prometheus counters (served at /metrics on the internal listener, not here). */
  metrics: ApiMetrics;
  /** What the public /readyz asks (it answers only ready or not): each dependency's check. */
  readiness: Record<string, Check>;
  monitorsRouter: MonitorsRouterDeps;
  /** Cases (routes /api/v1/cases): the queue, each case with its trail, and the team's actions as workflow updates. */
  casesRouter: CasesRouterDeps;
  /** The public keys that verify signed answers, served at /.well-known/jwks.json. */
  evidenceKeys: Pick<SigningKeyRing, 'publicKeys'>;
  config: ScreeningRouterDeps['config'] & BillingRouterDeps['config'] & ApiKeysRouterDeps['config'];
  /** The routers features build themselves (FeatureModule.routes), mounted by kind below. */
  featureRoutes: readonly FeatureRoutes[];
}

/** Builds the HTTP app from its dependencies; nothing here reads the environment or opens connections. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.trustProxy);
  // Before everything else, so every answer carries X-Request-Id, its access line and its HTTP metric.
  app.use(requestIdAndAccessLog(deps.log, deps.metrics.httpRequest));
  app.use(webhookDeliveryMetrics(featureWebhookProviders(), deps.metrics));

  // Webhooks first: they verify signatures over the raw bytes, which express.json would consume.
  app.use(createClerkWebhookRouter(deps));
  app.use(createPayPalWebhookRouter(deps));
  app.use(
    createPayFastWebhookRouter({
      ...deps.payfast,
      startEventWorkflow: deps.startEventWorkflow,
      webhookEvents: deps.webhookEvents,
      log: deps.log,
    }),
  );
  for (const routes of deps.featureRoutes) if (routes.webhooks) app.use(routes.webhooks);

  // The batch submit's body (up to MAX_BATCH_ITEMS targets, past the general limit) is read by its own route, after
  // authentication and its scope check: an unauthenticated megabyte is never parsed. Every other JSON body here.
  app.use(
    express.json({
      limit: '256kb',
      verify: requireUtf8,
      type: (req) => !isBatchSubmit(req as express.Request) && Boolean((req as express.Request).is('application/json')),
    }),
  );
  // Text Postgres cannot store, prototype keys, runaway nesting, non-UTF-8 queries: 400 before any route reads them.
  app.use(refuseUnsafeInput);
  app.use(createPackagesRouter(deps));
  // Paid per request in USDC (x402), no account: mounted before the authenticated /api/v1 router.
  app.use(createX402ReportsRouter(deps.x402));

  // Public pages (the account dashboard at /app, which calls the same /api/v1 routes as any client).
  for (const routes of deps.featureRoutes) if (routes.public) app.use(routes.public);

  // Probes: liveness, and readiness as ready or not. The detailed /readyz and /metrics are on the internal listener.
  app.use(createPublicHealthRouter(deps.readiness));
  app.get('/health', async (_req, res) => {
    await deps.pool.query('SELECT 1');
    res.json({ success: true, data: { status: 'ok' } });
  });

  // The machine-readable contract, public: mounted before the authenticated /api/v1 routers.
  app.use(createOpenApiRouter({ maxCrawlTimeoutMs: deps.config.CRAWL_TIMEOUT_MAX_MS }));
  // The keys that verify signed answers, public like the contract: a customer's auditor needs no account.
  app.use(createJwksRouter(deps.evidenceKeys));

  const authenticate = createAuthenticate(deps);
  // Market data has its own per-key rate limit, so it is mounted ahead of the general /api/v1 router.
  app.use('/api/v1', createMarketRouter(deps.marketData, authenticate));
  const v1 = express.Router();
  v1.use(authenticate);
  v1.use(createScreeningJobsRouter(deps));
  v1.use(createSyncAnalyzeRouter({ ...deps, waitMs: deps.syncAnalyzeWaitMs }));
  v1.use(createRescoreRouter(deps));
  v1.use(createCreditsRouter(deps));
  v1.use(createApiKeysRouter(deps));
  v1.use(createTeamRouter(deps));
  v1.use(createBillingRouter(deps));
  v1.use(createPayFastRefundsRouter(deps));
  v1.use(createMonitorsRouter(deps.monitorsRouter));
  v1.use(createCasesRouter(deps.casesRouter));
  for (const routes of deps.featureRoutes) if (routes.v1) v1.use(routes.v1);
  v1.use(createBatchRouter(deps));
  app.use('/api/v1', v1);

  // Swagger UI over that document (assets from node_modules, nothing from the network).
  app.use(createDocsRouter());

  app.use(unknownRoute);
  app.use(createErrorHandler(deps.log));
  return app;
}
