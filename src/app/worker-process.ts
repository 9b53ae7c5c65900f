import { Client } from '@temporalio/client';
import { loadConfigOrExit } from './config';
import { createPool, servingTimeouts } from '../platform/db/pool';
import { freeLocalPort } from '../platform/dev-services/free-port';
import { installTemporalRuntime } from '../platform/temporal/temporal-runtime';
import {
  connectTemporalClient,
  connectTemporalWorker,
  temporalConnectionOptions,
} from '../platform/temporal/temporal-connection';
import { createMetricsRegistry } from '../platform/metrics/metrics-registry';
import { startWorkerHttpServer } from './worker-http-server';
import { createLogger, stderrDestination } from '../platform/logging/logger';
import { prepareDatabaseOnce } from './prepare-database';
import { buildActivities, createWorker, workerRuntime } from './worker-runtime';
import { startFeatureSchedules } from './feature-schedules';

/**
 * The worker process (`npm run worker`): migrations, activities, the worker's health and metrics listener, the
 * schedules it owns, then polling until SIGINT/SIGTERM. `overrides`: parts of the features' activities replaced
 * (tests wire PayPal's verifier to their own certificate authority, as they do the api's).
 */
export async function runWorkerProcess(overrides: object = {}): Promise<void> {
  const config = loadConfigOrExit();
  const log = createLogger(config.LOG_LEVEL, { process: 'worker' }, stderrDestination(config.LOG_FORMAT));
  // The SDK's worker metrics go to a local exporter that this process's /metrics appends.
  const sdkMetricsPort = config.TEMPORAL_SDK_METRICS_PORT || (await freeLocalPort());
  const sdkMetricsServed = installTemporalRuntime(config.LOG_LEVEL, { sdkMetricsPort, log });
  if (!config.DATABASE_URL || !config.TEMPORAL_ADDRESS) {
    log.error(
      'npm run worker needs DATABASE_URL and TEMPORAL_ADDRESS (npm start runs everything with embedded defaults)',
    );
    process.exit(78);
  }
  const temporalOptions = temporalConnectionOptions(config, config.TEMPORAL_ADDRESS);
  await prepareDatabaseOnce(config.DATABASE_URL, config, log);
  const pool = createPool(config.DATABASE_URL, config.DATABASE_POOL_SIZE, servingTimeouts(config));
  const connection = await connectTemporalWorker(temporalOptions);
  // A client too: the queued-job sweeper's activity starts workflows, and the schedules are set up from here.
  const clientConnection = await connectTemporalClient(temporalOptions);
  const temporal = new Client({ connection: clientConnection, namespace: config.TEMPORAL_NAMESPACE });
  const registry = createMetricsRegistry();
  const worker = await createWorker({
    connection,
    config,
    namespace: config.TEMPORAL_NAMESPACE,
    log,
    activities: buildActivities({
      config,
      pool,
      temporal,
      metrics: registry,
      log,
      overrides,
    }),
  });
  const http = await startWorkerHttpServer({
    port: config.WORKER_HTTP_PORT,
    host: config.WORKER_HTTP_HOST,
    registry,
    pool,
    workerRunning: () => worker.getState() === 'RUNNING',
    sdkMetricsUrl: sdkMetricsServed ? `http://127.0.0.1:${sdkMetricsPort}/metrics` : undefined,
  });
  log.info('worker polling', {
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    health: `${http.url}/readyz`,
    metrics: `${http.url}/metrics`,
  });
  // The live candle sync runs on the workers; each worker's start makes it match its MARKET_LIVE_* config.
  await startFeatureSchedules(workerRuntime({ config, pool, temporal, metrics: registry, log }));
  // The SDK's runtime shuts the worker down on SIGINT/SIGTERM; run() then resolves.
  await worker.run();
  await http.close();
  await clientConnection.close();
  await connection.close();
  await pool.end();
}
