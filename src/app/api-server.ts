import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@temporalio/client';
import type { Express } from 'express';
import type { Pool } from 'pg';
import { postgresAnswers, temporalAnswers, workerPolls } from '../platform/health/checks';
import { startOperationsServer } from '../platform/health/operations-server';
import type { Logger } from '../platform/logging/logger';
import { createMetricsRegistry } from '../platform/metrics/metrics-registry';
import type { SigningKeyRing } from '../platform/signing/key-ring';
import { apiRuntime } from './api-runtime';
import type { Config } from './config';
import { createApp } from './express-app';
import { featureRoutes } from './feature-runtime';
import { FEATURES } from './features';
import { createApiMetrics, type ApiMetrics } from './metrics/api-metrics';

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

/**
 * Wires the HTTP app over the features' routes and listens on config.PORT (0 = any free port). Tests pass
 * `overrides` (trust anchors, certificate fetchers, clocks: each feature's overrides type names what) here, never
 * through the environment.
 */
export async function startApiServer(deps: {
  config: Config;
  pool: Pool;
  temporal: Client;
  log: Logger;
  overrides?: object;
}): Promise<ApiServer> {
  const { config, pool, temporal, log } = deps;
  const metrics = createApiMetrics(createMetricsRegistry());
  const runtime = apiRuntime({ config, pool, temporal, log, metrics: metrics.registry, overrides: deps.overrides });
  // Production gets here without EVIDENCE_SIGNING_KEYS only when EVIDENCE_KEYS_IN_DATABASE=true said so (config.ts).
  if (!config.EVIDENCE_SIGNING_KEYS && config.NODE_ENV === 'production')
    log.warn(
      'EVIDENCE_SIGNING_KEYS is not set and EVIDENCE_KEYS_IN_DATABASE=true: answers are signed with a key kept in ' +
        'Postgres, which anyone who can read the database can use to sign (see docs/configuration.md)',
    );
  const readiness = {
    postgres: postgresAnswers(pool),
    temporal: temporalAnswers(temporal),
    worker: workerPolls(temporal, config.TEMPORAL_TASK_QUEUE),
  };
  const app = createApp({
    pool,
    log,
    config,
    trustProxy: config.TRUST_PROXY,
    metrics,
    readiness,
    evidenceKeys: runtime.evidenceKeys,
    authenticate: runtime.ports.authenticate,
    featureRoutes: featureRoutes(runtime),
  });
  const server = createServer(app);
  const attached: { close(): Promise<void> }[] = [];
  const closeAttached = async () => {
    for (const part of attached.splice(0).reverse()) await part.close();
  };
  for (const feature of FEATURES) if (feature.attach) attached.push(await feature.attach(runtime, server));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, '0.0.0.0', () => resolve());
  }).catch(async (err: unknown) => {
    await closeAttached();
    throw err;
  });
  const { port } = server.address() as AddressInfo;
  // Operators' view (each check, its latency and error; the counters) on a listener of its own, loopback by default.
  const internal = await startOperationsServer({
    port: config.INTERNAL_PORT,
    host: config.INTERNAL_HOST,
    checks: readiness,
    advisories: Object.assign({}, ...FEATURES.map((feature) => feature.advisories?.(runtime) ?? {})),
    registry: metrics.registry,
  }).catch(async (err: unknown) => {
    await closeAttached();
    server.close();
    throw err;
  });
  return {
    server,
    app,
    metrics,
    evidenceKeys: runtime.evidenceKeys,
    url: `http://127.0.0.1:${port}`,
    internalUrl: internal.url,
    close: async () => {
      await internal.close();
      await closeAttached();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
