import type { Pool } from 'pg';
import type { Registry } from 'prom-client';
import { postgresAnswers } from '../platform/health/checks';
import { startOperationsServer, type OperationsServer } from '../platform/health/operations-server';
import { sdkMetricsReader } from '../platform/metrics/sdk-metrics';

export type WorkerHttpServer = OperationsServer;

/**
 * The worker process's own internal listener (WORKER_HTTP_PORT on WORKER_HTTP_HOST, 127.0.0.1 unless configured):
 * /healthz, /readyz (a worker is running and Postgres answers) and /metrics (its registry, then the Temporal SDK's
 * metrics when `sdkMetricsUrl` is given). It serves operators only, so it has no other route.
 */
export function startWorkerHttpServer(deps: {
  port: number;
  /** Interface to listen on (default loopback); 0.0.0.0 when an orchestrator or scraper outside must reach it. */
  host?: string;
  registry: Registry;
  pool: Pool;
  /** True while at least one worker of this process is running (polling its task queue). */
  workerRunning(): boolean;
  sdkMetricsUrl?: string;
}): Promise<WorkerHttpServer> {
  return startOperationsServer({
    port: deps.port,
    host: deps.host ?? '127.0.0.1',
    checks: {
      worker: async () => {
        if (!deps.workerRunning()) throw new Error('no worker is running in this process');
        return 'running';
      },
      postgres: postgresAnswers(deps.pool),
    },
    registry: deps.registry,
    extraMetrics: deps.sdkMetricsUrl ? sdkMetricsReader(deps.sdkMetricsUrl) : undefined,
  });
}
