/** `npm run migrate`: applies migrations and loads the reference data, then exits. */
import { loadConfigOrExit } from './app/config';
import { createPool } from './platform/db/pool';
import { createLogger, stderrDestination } from './platform/logging/logger';
import { prepareDatabase } from './app/prepare-database';

async function main() {
  const config = loadConfigOrExit();
  const log = createLogger(config.LOG_LEVEL, { process: 'migrate' }, stderrDestination(config.LOG_FORMAT));
  if (!config.DATABASE_URL) {
    log.error('npm run migrate needs DATABASE_URL (npm start migrates its embedded database itself)');
    process.exit(78);
  }
  const pool = createPool(config.DATABASE_URL, 2);
  await prepareDatabase(config, pool, log);
  await pool.end();
  log.info('database ready');
}

main().catch((err) => {
  process.stderr.write(`migrate failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
