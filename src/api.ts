/** `npm run api`: the HTTP API alone, against DATABASE_URL and TEMPORAL_ADDRESS. */
import { Client } from '@temporalio/client';
import { loadConfigOrExit } from './app/config';
import { createPool, servingTimeouts } from './platform/db/pool';
import { installTemporalRuntime } from './platform/temporal/temporal-runtime';
import { connectTemporalClient, temporalConnectionOptions } from './platform/temporal/temporal-connection';
import { createLogger, stderrDestination } from './platform/logging/logger';
import { prepareDatabaseOnce } from './app/prepare-database';
import { startApiServer } from './app/api-server';
import { onShutdown } from './app/shutdown';

async function main() {
  const config = loadConfigOrExit();
  const log = createLogger(config.LOG_LEVEL, { process: 'api' }, stderrDestination(config.LOG_FORMAT));
  installTemporalRuntime(config.LOG_LEVEL, { log });
  if (!config.DATABASE_URL || !config.TEMPORAL_ADDRESS) {
    log.error('npm run api needs DATABASE_URL and TEMPORAL_ADDRESS (npm start runs everything with embedded defaults)');
    process.exit(78);
  }
  const temporalOptions = temporalConnectionOptions(config, config.TEMPORAL_ADDRESS);
  // The worker loads the shipped data; api instances only make sure the schema is there.
  await prepareDatabaseOnce(
    config.DATABASE_URL,
    { ...config, LOAD_REFERENCE_DATA: false, LOAD_MARKET_DATA: false },
    log,
  );
  const pool = createPool(config.DATABASE_URL, config.DATABASE_POOL_SIZE, servingTimeouts(config));
  const connection = await connectTemporalClient(temporalOptions);
  const temporal = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE });
  const api = await startApiServer({ config, pool, temporal, log });
  log.info('api listening', { url: api.url });
  onShutdown(log, [() => api.close(), () => connection.close(), () => pool.end()]);
}

main().catch((err) => {
  process.stderr.write(`api failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
