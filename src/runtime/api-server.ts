import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import { createApp } from '../api/app';
import { createClerkSessionVerifier } from '../auth/clerk-session';
import type { Config } from '../config';
import { configuredChains } from '../domain/chains/registry';
import { capabilitiesFor } from '../domain/risk/capabilities';
import type { Logger } from '../logger';
import { createJobService } from '../screening/job-service';
import { createStores } from './stores';

export interface ApiServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

export type ApiConfig = Pick<Config, 'PORT' | 'CLERK_JWT_KEY' | 'CLERK_AUTHORIZED_PARTIES' | 'TEMPORAL_TASK_QUEUE' | 'ANALYSIS_HEARTBEAT_TIMEOUT_MS' |
  'CRAWL_TIMEOUT_DEFAULT_MS' | 'CRAWL_TIMEOUT_MAX_MS' | 'SYNC_ANALYZE_WAIT_MS' | 'ETHEREUM_RPC_URL' | 'BSC_RPC_URL' | 'CHAIN_REQUEST_TIMEOUT_MS'>;

/** Wires the HTTP app over its real dependencies and listens on config.PORT (0 = any free port). */
export async function startApiServer(deps: { config: ApiConfig; pool: Pool; temporal: Client; log: Logger }): Promise<ApiServer> {
  const { config, pool, temporal, log } = deps;
  const stores = createStores(pool);
  const capabilities = capabilitiesFor(configuredChains(config));
  const app = createApp({
    ...stores,
    pool,
    log,
    capabilities,
    config,
    syncAnalyzeWaitMs: config.SYNC_ANALYZE_WAIT_MS,
    verifySessionToken: config.CLERK_JWT_KEY
      ? createClerkSessionVerifier({ publicKeyPem: config.CLERK_JWT_KEY, authorizedParties: config.CLERK_AUTHORIZED_PARTIES })
      : undefined,
    jobService: createJobService({
      pool,
      ...stores,
      capabilities,
      temporal,
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      heartbeatTimeoutMs: config.ANALYSIS_HEARTBEAT_TIMEOUT_MS,
      log,
    }),
  });
  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, '0.0.0.0', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
