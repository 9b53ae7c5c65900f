import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isIP } from 'node:net';
import express from 'express';
import type { Registry } from 'prom-client';
import { createMetricsRouter } from '../metrics/metrics-router';
import type { Check } from './checks';
import { createHealthRouter } from './health-router';

export interface OperationsServer {
  /** Where this process itself reaches the listener (loopback when it listens on every interface). */
  url: string;
  close(): Promise<void>;
}

/** A URL for `host`: a wildcard is reached on loopback, an IPv6 literal in brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return isIP(host) === 6 ? `[${host}]` : host;
}

/**
 * A process's internal listener for operators (the api's INTERNAL_PORT, the worker's WORKER_HTTP_PORT): /healthz,
 * the detailed /readyz (every check with its latency and error) and /metrics. What it says maps the deployment and
 * its traffic, so it binds `host`, loopback by default, and is never the public port; an orchestrator or a scraper
 * in the same network gets it by setting the host to an interface it can reach.
 */
export async function startOperationsServer(deps: {
  port: number;
  host: string;
  checks: Record<string, Check>;
  /** Reported as degraded without failing readiness (a stale sanctions list). */
  advisories?: Record<string, Check>;
  registry: Registry;
  /** Appended to /metrics (the worker's: the Temporal SDK's own metrics). */
  extraMetrics?: () => Promise<string>;
}): Promise<OperationsServer> {
  const app = express();
  app.disable('x-powered-by');
  app.use(createHealthRouter(deps.checks, deps.advisories));
  app.use(createMetricsRouter(deps.registry, deps.extraMetrics));
  app.use((_req, res) => void res.status(404).json({ error: 'Not found' }));

  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(deps.port, deps.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${urlHost(deps.host)}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
