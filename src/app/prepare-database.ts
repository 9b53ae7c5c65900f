import type { Pool } from 'pg';
import type { Config } from './config';
import { migrate } from '../platform/db/migrate';
import { loadMarketData } from '../market/store/market-files';
import { loadReferenceData } from '../screening/reference-data/datasets';
import { loadBundledLists } from '../lists/load-bundled-lists';
import { createUserStore } from '../identity/users-store';
import type { Logger } from '../platform/logging/logger';
import { createPool } from '../platform/db/pool';
import { SCHEMA_FOLDERS } from './schema-folders';

/**
 * Migrations (every feature's, SCHEMA_FOLDERS), then the reference data and candle files (only files that changed),
 * then the bootstrap admin. Idempotent.
 */
export async function prepareDatabase(
  config: Pick<
    Config,
    'LOAD_REFERENCE_DATA' | 'REFERENCE_DATA_DIR' | 'LOAD_MARKET_DATA' | 'MARKET_DATA_DIR' | 'BOOTSTRAP_ADMIN_API_KEY'
  >,
  pool: Pool,
  log: Logger,
): Promise<void> {
  await migrate(pool, log, SCHEMA_FOLDERS);
  if (config.LOAD_REFERENCE_DATA) {
    await loadReferenceData(pool, config.REFERENCE_DATA_DIR, log);
    await loadBundledLists(pool, config.REFERENCE_DATA_DIR, log);
  }
  if (config.LOAD_MARKET_DATA) await loadMarketData(pool, config.MARKET_DATA_DIR, log);
  if (config.BOOTSTRAP_ADMIN_API_KEY) {
    const outcome = await createUserStore(pool).ensureBootstrapAdmin(config.BOOTSTRAP_ADMIN_API_KEY);
    if (outcome.kind === 'ready')
      log.info('bootstrap admin ready', { userId: outcome.user.id, revokedBootstrapKeys: outcome.revokedKeyIds });
    else
      log.warn(
        'BOOTSTRAP_ADMIN_API_KEY names a key revoked by a newer value (or by its owner): it stays revoked; set a ' +
          'new value (npm start without the variable: delete DATA_DIR/bootstrap-admin-api-key for a new one)',
        { userId: outcome.userId },
      );
  }
}

/**
 * prepareDatabase on a pool of its own without the serving timeouts (a first load of the candle files
 * runs statements far longer than any request may), closed before serving starts.
 */
export async function prepareDatabaseOnce(
  databaseUrl: string,
  config: Parameters<typeof prepareDatabase>[0],
  log: Logger,
): Promise<void> {
  const pool = createPool(databaseUrl, 4);
  try {
    await prepareDatabase(config, pool, log);
  } finally {
    await pool.end();
  }
}
