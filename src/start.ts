/**
 * `npm start`: the whole service on one machine with embedded defaults: an embedded Postgres unless
 * DATABASE_URL is set, a Temporal dev server (with Web UI) unless TEMPORAL_ADDRESS is set, migrations
 * and reference data, then api and worker in this one process.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generateApiKey } from './identity/api-key-format';
import { Client } from '@temporalio/client';
import { loadConfigOrExit } from './app/config';
import { createPool, servingTimeouts } from './platform/db/pool';
import { startEmbeddedPostgres } from './platform/dev-services/embedded-postgres';
import { resolveTemporalCli } from './platform/dev-services/temporal-cli';
import { startTemporalDevServer } from './platform/dev-services/temporal-dev-server';
import { freeLocalPort } from './platform/dev-services/free-port';
import { installTemporalRuntime } from './platform/temporal/temporal-runtime';
import {
  connectTemporalClient,
  connectTemporalWorker,
  temporalConnectionOptions,
} from './platform/temporal/temporal-connection';
import { createMetricsRegistry } from './platform/metrics/metrics-registry';
import { startWorkerHttpServer } from './app/worker-http-server';
import { createLogger, stderrDestination } from './platform/logging/logger';
import { startApiServer } from './app/api-server';
import { prepareDatabaseOnce } from './app/prepare-database';
import { onShutdown } from './app/shutdown';
import { buildActivities, createWorker, workerRuntime } from './app/worker-runtime';
import { startFeatureSchedules } from './app/feature-schedules';

const ADMIN_KEY_FILE = 'bootstrap-admin-api-key';

/** Outside production, a newcomer gets an admin key without configuring anything: made once, kept in DATA_DIR. */
async function localAdminKey(dataDir: string): Promise<string> {
  const file = path.join(dataDir, ADMIN_KEY_FILE);
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    const key = generateApiKey();
    await mkdir(dataDir, { recursive: true });
    await writeFile(file, `${key}\n`, { mode: 0o600 });
    return key;
  }
}

async function main() {
  const config = loadConfigOrExit();
  // Readable lines when a person runs it in a terminal, JSON when stderr goes elsewhere (LOG_FORMAT).
  const log = createLogger(config.LOG_LEVEL, { process: 'start' }, stderrDestination(config.LOG_FORMAT));
  // The SDK's worker metrics go to a local exporter that the worker's /metrics (WORKER_HTTP_PORT) appends.
  const sdkMetricsPort = config.TEMPORAL_SDK_METRICS_PORT || (await freeLocalPort());
  const sdkMetricsServed = installTemporalRuntime(config.LOG_LEVEL, { sdkMetricsPort, log });
  const cleanups: (() => Promise<unknown>)[] = [];

  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    log.info('starting embedded Postgres', {
      dataDir: path.join(config.DATA_DIR, 'postgres'),
      port: config.EMBEDDED_PG_PORT,
    });
    const db = await startEmbeddedPostgres({
      dataDir: path.join(config.DATA_DIR, 'postgres'),
      port: config.EMBEDDED_PG_PORT,
      persistent: true,
      log: log.child({ source: 'postgres' }),
    });
    databaseUrl = db.url;
    cleanups.unshift(() => db.stop());
  }

  let temporalAddress = config.TEMPORAL_ADDRESS;
  let temporalUi: string | null = null;
  if (!temporalAddress) {
    const cliPath = resolveTemporalCli(config.TEMPORAL_CLI_PATH, log);
    log.info('starting Temporal dev server', { cli: cliPath ?? 'SDK download', port: config.TEMPORAL_PORT });
    const dev = await startTemporalDevServer({
      cliPath,
      port: config.TEMPORAL_PORT,
      uiPort: config.TEMPORAL_UI_PORT,
      dbFile: path.resolve(config.DATA_DIR, 'temporal.sqlite'),
      namespace: config.TEMPORAL_NAMESPACE,
    });
    temporalAddress = dev.address;
    temporalUi = dev.uiUrl;
    cleanups.unshift(() => dev.stop());
  }
  const temporalOptions = temporalConnectionOptions(config, temporalAddress);

  const adminKey =
    config.BOOTSTRAP_ADMIN_API_KEY ??
    (config.NODE_ENV === 'production' ? undefined : await localAdminKey(config.DATA_DIR));
  await prepareDatabaseOnce(databaseUrl, { ...config, BOOTSTRAP_ADMIN_API_KEY: adminKey }, log);
  const pool = createPool(databaseUrl, config.DATABASE_POOL_SIZE, servingTimeouts(config));
  cleanups.unshift(() => pool.end());

  const clientConnection = await connectTemporalClient(temporalOptions);
  const temporal = new Client({ connection: clientConnection, namespace: config.TEMPORAL_NAMESPACE });
  const workerConnection = await connectTemporalWorker(temporalOptions);
  // The worker keeps its own registry and port even in this one process, as it has when run alone.
  const workerRegistry = createMetricsRegistry();
  const worker = await createWorker({
    connection: workerConnection,
    config,
    namespace: config.TEMPORAL_NAMESPACE,
    log,
    activities: buildActivities({
      config,
      pool,
      temporal,
      metrics: workerRegistry,
      log,
    }),
  });
  const workerRun = worker.run();
  const workerHttp = await startWorkerHttpServer({
    port: config.WORKER_HTTP_PORT,
    host: config.WORKER_HTTP_HOST,
    registry: workerRegistry,
    pool,
    workerRunning: () => worker.getState() === 'RUNNING',
    sdkMetricsUrl: sdkMetricsServed ? `http://127.0.0.1:${sdkMetricsPort}/metrics` : undefined,
  });
  cleanups.unshift(async () => {
    // On SIGINT/SIGTERM the SDK's runtime has begun the worker's shutdown already, and a second call throws.
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await workerRun;
    await workerHttp.close();
    await workerConnection.close();
  });

  const api = await startApiServer({ config, pool, temporal, log });
  await startFeatureSchedules(workerRuntime({ config, pool, temporal, metrics: workerRegistry, log }));
  cleanups.unshift(() => clientConnection.close());
  cleanups.unshift(() => api.close());

  onShutdown(log, cleanups);
  const keyHint = config.BOOTSTRAP_ADMIN_API_KEY
    ? 'BOOTSTRAP_ADMIN_API_KEY is an admin key (x-api-key); POST /api/v1/api-keys mints user keys'
    : adminKey
      ? `${adminKey}  (admin, kept in ${path.join(config.DATA_DIR, ADMIN_KEY_FILE)}; send it as x-api-key)`
      : 'set BOOTSTRAP_ADMIN_API_KEY=<24+ chars> and restart: that key becomes an admin key (see README)';
  process.stdout.write(
    `${[
      '',
      `  API          http://localhost:${new URL(api.url).port}`,
      `  Operations   api ${api.internalUrl}/readyz and /metrics; worker ${workerHttp.url}/readyz and /metrics`,
      `  Temporal UI  ${temporalUi ?? `(external Temporal at ${temporalAddress})`}`,
      `  Temporal     ${temporalAddress} ` +
        `(namespace ${config.TEMPORAL_NAMESPACE}, task queue ${config.TEMPORAL_TASK_QUEUE})`,
      `  API key      ${keyHint}`,
      '',
    ].join('\n')}\n`,
  );
}

main().catch((err) => {
  process.stderr.write(`start failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
