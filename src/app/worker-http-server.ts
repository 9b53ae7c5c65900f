import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { Pool } from 'pg';
import type { Registry } from 'prom-client';
import { postgresAnswers } from '../platform/health/checks';
import { createHealthRouter } from '../platform/health/health-router';
import { createMetricsRouter } from '../platform/metrics/metrics-router';
import { sdkMetricsReader } from '../platform/metrics/sdk-metrics';

export interface WorkerHttpServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The worker process's own small HTTP server (WORKER_HTTP_PORT): /healthz, /readyz (a worker is
 * running and Postgres answers) and /metrics (its registry, then the Temporal SDK's metrics when
 * `sdkMetricsUrl` is given). It serves operators only, so it has no other route.
 */
export async function startWorkerHttpServer(deps: {
  port: number;
  /** Interface to listen on; 0.0.0.0 in a container so the orchestrator can probe it. */
  host?: string;
  registry: Registry;
  pool: Pool;
  /** True while at least one worker of this process is running (polling its task queue). */
  workerRunning(): boolean;
  sdkMetricsUrl?: string;
}): Promise<WorkerHttpServer> {
  const app = express();
  app.disable('x-powered-by');
  app.use(
    createHealthRouter({
      worker: async () => {
        if (!deps.workerRunning()) throw new Error('no worker is running in this process');
        return 'running';
      },
      postgres: postgresAnswers(deps.pool),
    }),
  );
  app.use(createMetricsRouter(deps.registry, deps.sdkMetricsUrl ? sdkMetricsReader(deps.sdkMetricsUrl) : undefined));
  app.use((_req, res) => void res.status(404).json({ error: 'Not found' }));

  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(deps.port, deps.host ?? '0.0.0.0', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
