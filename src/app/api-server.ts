import { casesRouterDeps, rescoreCaseAlerts } from '../cases/cases-wiring';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@temporalio/client';
import type { Express } from 'express';
import type { Pool } from 'pg';
import { createApp } from './express-app';
import { createIdentityResolver } from '../identity/authenticate';
import { createIdentityCache } from '../identity/identity-cache';
import { createClerkSessionVerifier } from '../identity/clerk-session';
import type { Config } from './config';
import { configuredChains } from '../screening/chains/registry';
import { capabilitiesFor } from '../screening/engine/capabilities';
import type { Logger } from '../platform/logging/logger';
import { createOutboxListener } from '../realtime/outbox-listener';
import { attachRealtime } from '../realtime/socket-server';
import { createJobService } from '../screening/job-service';
import { createScreeningWorkflowStarter } from '../screening/screening-workflow-starter';
import { createRescorer } from '../screening/rescore/rescore-job';
import { shippedRiskModel } from '../screening/engine/risk-model';
import { createEventWorkflowStarter } from '../platform/webhooks/event-workflows';
import { batchWorkflowSettings, createBatchService, createBatchWorkflowStarter } from '../batches';
import { buildWebhookVerifiers, type WebhookVerifierOverrides } from './webhook-verifiers';
import { createStores } from './stores';
import { buildFacilitator } from '../x402/facilitator';
import { createPaymentGate } from '../x402/payment-gate';
import { createX402RateLimits } from '../x402/x402-rate-limits';
import { createTieredLimiter } from '../platform/rate-limit/limiter';
import { liveSyncPlan } from '../market/domain/live/live-sync-plan';
import { createPayFastRefundRecorder } from '../billing/payfast/record-payfast-refund';
import { countingRejections } from '../platform/rate-limit/counted-limiter';
import { createJobSubmitLimit } from './job-submit-limit';
import { postgresAnswers, temporalAnswers, workerPolls } from '../platform/health/checks';
import { startOperationsServer } from '../platform/health/operations-server';
import { createApiMetrics, type ApiMetrics } from './metrics/api-metrics';
import { createMetricsRegistry } from '../platform/metrics/metrics-registry';
import { evidenceKeyRing } from '../platform/signing/evidence-key-ring';
import { createEvidenceSigner } from '../platform/signing/evidence-signer';
import { listsRouterDeps, ofacListFresh, registerListAge } from '../lists';
import {
  createMonitorStore,
  MONITOR_RESCREEN_REQUESTED,
  resumeMonitorsAfterGrant,
  wakeMonitorOnClusterMerge,
} from '../monitors';
import type { SigningKeyRing } from '../platform/signing/key-ring';
import { featureRoutes } from './feature-runtime';
import { withPorts } from './feature-ports';

export interface ApiServer {
  server: Server;
  /** The Express app behind `server` (tests walk its router table). */
  app: Express;
  /** This server's counters (its own registry, served at /metrics on the internal listener). */
  metrics: ApiMetrics;
  /** The keys that sign completed answers (tests refresh them after a rotation). */
  evidenceKeys: SigningKeyRing;
  url: string;
  /** The internal listener (INTERNAL_PORT on INTERNAL_HOST): /healthz, the detailed /readyz and /metrics. */
  internalUrl: string;
  close(): Promise<void>;
}

function liveSyncSummary(config: Config) {
  const plan = liveSyncPlan(config);
  return plan
    ? { connector: plan.connector, symbols: plan.symbols.map((s) => s.symbol), pollSeconds: plan.pollSeconds }
    : null;
}

/**
 * Wires the HTTP app over its real dependencies and listens on config.PORT (0 = any free port).
 * Tests pass `verifiers` (trust anchors, certificate fetcher, clocks) here, never through the environment.
 */
export async function startApiServer(deps: {
  config: Config;
  pool: Pool;
  temporal: Client;
  log: Logger;
  verifiers?: WebhookVerifierOverrides;
}): Promise<ApiServer> {
  const { config, pool, temporal, log } = deps;
  const stores = createStores(pool);
  const capabilities = capabilitiesFor(configuredChains(config));
  const facilitator = buildFacilitator({
    url: config.X402_FACILITATOR_URL,
    rpcUrl: config.X402_RPC_URL,
    privateKey: config.X402_FACILITATOR_PRIVATE_KEY,
  });
  if (!facilitator || !config.X402_PAY_TO)
    log.warn(
      'x402 reports disabled: set X402_PAY_TO and X402_FACILITATOR_URL (or ' +
        'X402_RPC_URL + X402_FACILITATOR_PRIVATE_KEY); the report routes answer 503',
    );
  const verifySessionToken = config.CLERK_JWT_KEY
    ? createClerkSessionVerifier({
        publicKeyPem: config.CLERK_JWT_KEY,
        authorizedParties: config.CLERK_AUTHORIZED_PARTIES,
        issuer: config.CLERK_ISSUER,
      })
    : undefined;
  // Serves nothing until the outbox listener below is listening: it is what drops entries changed elsewhere.
  const identityCache = createIdentityCache({ ttlMs: config.AUTH_CACHE_TTL_MS });
  const metrics = createApiMetrics(createMetricsRegistry());
  const evidenceKeys = evidenceKeyRing(config.EVIDENCE_SIGNING_KEYS, pool);
  // Production gets here without EVIDENCE_SIGNING_KEYS only when EVIDENCE_KEYS_IN_DATABASE=true said so (config.ts).
  if (!config.EVIDENCE_SIGNING_KEYS && config.NODE_ENV === 'production')
    log.warn(
      'EVIDENCE_SIGNING_KEYS is not set and EVIDENCE_KEYS_IN_DATABASE=true: answers are signed with a key kept in ' +
        'Postgres, which anyone who can read the database can use to sign (see docs/configuration.md)',
    );
  // The lists routes are the lists feature's own (src/lists/routes.ts); /readyz and /metrics read the same list.
  const lists = listsRouterDeps(config, pool);
  registerListAge(metrics.registry, lists.lists);
  const monitors = createMonitorStore(pool);
  // One per-account budget for every route that starts paid work: jobs, the deprecated analyze, monitors.
  const limitSubmits = createJobSubmitLimit({ pool, perMinute: config.JOB_SUBMIT_LIMIT_PER_MINUTE });
  const resumeMonitors = resumeMonitorsAfterGrant({ monitors, temporal, log });
  const wakeMonitor = wakeMonitorOnClusterMerge(temporal);
  const readiness = {
    postgres: postgresAnswers(pool),
    temporal: temporalAnswers(temporal),
    worker: workerPolls(temporal, config.TEMPORAL_TASK_QUEUE),
  };
  const startEventWorkflow = createEventWorkflowStarter({ temporal, taskQueue: config.TEMPORAL_TASK_QUEUE, log });
  const app = createApp({
    ...stores,
    pool,
    log,
    metrics,
    evidenceKeys,
    evidenceSigner: createEvidenceSigner(evidenceKeys),
    readiness,
    monitorsRouter: {
      monitors,
      temporal,
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      defaultEveryHours: config.MONITOR_EVERY_HOURS_DEFAULT,
      limitSubmits,
      policies: stores.policies,
      hold: { pool, credits: stores.credits, subscriptions: stores.subscriptions, capabilities },
      maxActivePerAccount: config.MAX_ACTIVE_MONITORS_PER_ACCOUNT,
      bitcoinNetwork: config.BITCOIN_NETWORK,
    },
    casesRouter: casesRouterDeps(pool, temporal, config, createEvidenceSigner(evidenceKeys)),
    onRescored: rescoreCaseAlerts(pool, temporal, config, log),
    capabilities,
    config,
    syncAnalyzeWaitMs: config.SYNC_ANALYZE_WAIT_MS,
    limitSubmits,
    verifySessionToken,
    identityCache,
    ...buildWebhookVerifiers(config, deps.verifiers),
    startEventWorkflow,
    featureRoutes: featureRoutes(
      withPorts({
        config,
        pool,
        log,
        taskQueue: config.TEMPORAL_TASK_QUEUE,
        temporal,
        startEventWorkflow,
        metrics: metrics.registry,
        overrides: { ...deps.verifiers },
      }),
    ),
    unknownSubscriptionRetryMs: config.PAYPAL_UNKNOWN_SUBSCRIPTION_RETRY_MS,
    trustProxy: config.TRUST_PROXY,
    x402: {
      servePaid:
        facilitator && config.X402_PAY_TO
          ? createPaymentGate({
              facilitator,
              payTo: config.X402_PAY_TO,
              payments: stores.x402Payments,
              limits: createX402RateLimits({
                pool,
                perAddressPerMinute: config.X402_RATE_LIMIT_PER_IP_PER_MINUTE,
                perPayerPerMinute: config.X402_RATE_LIMIT_PER_PAYER_PER_MINUTE,
              }),
              // Past the report's timeout and a settlement's (the facilitator's maxTimeoutSeconds, 120 s), with room.
              claimStaleAfterMs: config.X402_REPORT_TIMEOUT_MS + 5 * 60_000,
              log,
            })
          : undefined,
      temporal,
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      capabilities,
      entities: stores.entities,
      history: stores.history,
      crawlTimeoutMs: config.CRAWL_TIMEOUT_DEFAULT_MS,
      heartbeatTimeoutMs: config.ANALYSIS_HEARTBEAT_TIMEOUT_MS,
      reportTimeoutMs: config.X402_REPORT_TIMEOUT_MS,
      bitcoinNetwork: config.BITCOIN_NETWORK,
      log,
    },
    marketData: {
      market: stores.market,
      // Counters live in Postgres so every api instance enforces one shared per-key budget.
      limiter: countingRejections(createTieredLimiter({ store: 'postgres', pool }), metrics),
      liveSync: liveSyncSummary(config),
    },
    recordPayFastRefund: createPayFastRefundRecorder({
      temporal,
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      waitMs: config.PAYFAST_REFUND_WAIT_MS,
    }),
    rescore: createRescorer({
      pool,
      jobs: stores.jobs,
      credits: stores.credits,
      policies: stores.policies,
      model: shippedRiskModel(),
    }),
    batchService: createBatchService({
      pool,
      credits: stores.credits,
      subscriptions: stores.subscriptions,
      jobs: stores.jobs,
      batches: stores.batches,
      capabilities,
      policies: stores.policies,
      starter: createBatchWorkflowStarter({
        temporal,
        taskQueue: config.TEMPORAL_TASK_QUEUE,
        settings: batchWorkflowSettings(config),
      }),
      log,
      metrics,
    }),
    jobService: createJobService({
      metrics,
      pool,
      ...stores,
      capabilities,
      temporal,
      starter: createScreeningWorkflowStarter({ temporal, taskQueue: config.TEMPORAL_TASK_QUEUE }),
      heartbeatTimeoutMs: config.ANALYSIS_HEARTBEAT_TIMEOUT_MS,
      log,
    }),
  });
  const server = createServer(app);
  const realtime = await attachRealtime({
    httpServer: server,
    resolveIdentity: createIdentityResolver({ users: stores.users, verifySessionToken, identityCache }),
    // The pool's own database: config.DATABASE_URL is unset when `npm start` runs an embedded Postgres.
    // Every event goes to the owner's sockets; a grant also wakes the owner's paused monitors.
    createListener: (onEvent) =>
      createOutboxListener({
        connectionString: pool.options.connectionString as string,
        log,
        // Credentials changed elsewhere are dropped from the cache on the NOTIFY, and again on the row (which
        // also catches a notification lost with its connection), before the sockets re-check theirs.
        onNotified: (notice) => identityCache.observe(notice),
        onListening: (listening) => identityCache.setListening(listening),
        onEvent: (event) => {
          identityCache.observe(event);
          onEvent(event);
          if (event.event === 'credits_granted') void resumeMonitors(event.userId);
          // A cluster merge recorded a re-screen (the request row makes it due): wake the monitor's workflow.
          if (event.event === MONITOR_RESCREEN_REQUESTED && typeof event.payload.monitorId === 'string')
            void wakeMonitor(event.payload.monitorId);
        },
      }),
    log,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, '0.0.0.0', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  // Operators' view (each check, its latency and error; the counters) on a listener of its own, loopback by default.
  const internal = await startOperationsServer({
    port: config.INTERNAL_PORT,
    host: config.INTERNAL_HOST,
    checks: readiness,
    advisories: { lists: ofacListFresh(lists) },
    registry: metrics.registry,
  }).catch(async (err: unknown) => {
    await realtime.close();
    server.close();
    throw err;
  });
  return {
    server,
    app,
    metrics,
    evidenceKeys,
    url: `http://127.0.0.1:${port}`,
    internalUrl: internal.url,
    close: async () => {
      await internal.close();
      await realtime.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
