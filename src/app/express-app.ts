import express, { type Express, type Request } from 'express';
import type { Pool } from 'pg';
import type { FeatureRoutes } from '../platform/features/feature-runtime';
import type { Check } from '../platform/health/checks';
import { createPublicHealthRouter } from '../platform/health/health-router';
import { createErrorHandler, unknownRoute } from '../platform/http/errors';
import { refuseUnsafeInput } from '../platform/http/refuse-unsafe-input';
import { requestIdAndAccessLog } from '../platform/http/request-id';
import type { TrustProxySetting } from '../platform/http/trust-proxy';
import { requireUtf8 } from '../platform/http/unsafe-input';
import type { Logger } from '../platform/logging/logger';
import { webhookDeliveryMetrics } from '../platform/metrics/webhook-delivery-edge';
import { createJwksRouter } from '../platform/signing/jwks-route';
import type { SigningKeyRing } from '../platform/signing/key-ring';
import { createDocsRouter } from './docs/docs-router';
import type { ApiMetrics } from './metrics/api-metrics';
import { createOpenApiRouter } from './openapi/openapi-router';
import { featureWebhookProviders } from './webhook-providers';

export interface AppDeps {
  pool: Pool;
  log: Logger;
  /** The process's config: the OpenAPI document states the bounds the features' routes were given. */
  config: Readonly<Record<string, unknown>>;
  /** Express `trust proxy`: which hops may set X-Forwarded-For (req.ip feeds per-address limits and source checks). */
  trustProxy: TrustProxySetting;
  /** This process's HTTP and webhook delivery counters (served at /metrics on the internal listener, not here). */
  metrics: ApiMetrics;
  /** What the public /readyz asks (it answers only ready or not): each dependency's check. */
  readiness: Record<string, Check>;
  /** The public keys that verify signed answers, served at /.well-known/jwks.json. */
  evidenceKeys: Pick<SigningKeyRing, 'publicKeys'>;
  /** Who is calling (the platform's `authenticate` port): guards every /api/v1 router. */
  authenticate: express.RequestHandler;
  /** The routers the features build (FeatureModule.routes), mounted by kind below, in the feature list's order. */
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
  for (const routes of deps.featureRoutes) if (routes.webhooks) app.use(routes.webhooks);

  // Every JSON body is parsed here, but those a feature reads itself (after authentication and its scope check).
  const readsOwnBody = deps.featureRoutes.flatMap((routes) => (routes.readsOwnBody ? [routes.readsOwnBody] : []));
  app.use(
    express.json({
      limit: '256kb',
      verify: requireUtf8,
      type: (req) =>
        !readsOwnBody.some((reads) => reads(req as Request)) && Boolean((req as Request).is('application/json')),
    }),
  );
  // Text Postgres cannot store, prototype keys, runaway nesting, non-UTF-8 queries: 400 before any route reads them.
  app.use(refuseUnsafeInput);

  // Unauthenticated routes: pages, what is paid per request, what authenticates itself.
  for (const routes of deps.featureRoutes) if (routes.public) app.use(routes.public);

  // Probes: liveness, and readiness as ready or not. The detailed /readyz and /metrics are on the internal listener.
  app.use(createPublicHealthRouter(deps.readiness));
  app.get('/health', async (_req, res) => {
    await deps.pool.query('SELECT 1');
    res.json({ success: true, data: { status: 'ok' } });
  });

  // The machine-readable contract, public: mounted before the authenticated /api/v1 routers.
  app.use(createOpenApiRouter({ config: deps.config }));
  // The keys that verify signed answers, public like the contract: a customer's auditor needs no account.
  app.use(createJwksRouter(deps.evidenceKeys));

  const v1 = express.Router();
  v1.use(deps.authenticate);
  for (const routes of deps.featureRoutes) if (routes.v1) v1.use(routes.v1);
  app.use('/api/v1', v1);

  // Swagger UI over that document (assets from node_modules, nothing from the network).
  app.use(createDocsRouter());

  app.use(unknownRoute);
  app.use(createErrorHandler(deps.log));
  return app;
}
