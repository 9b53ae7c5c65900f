import type { Pool } from 'pg';
import { migrate } from '../platform/db/migrate';
import { FEATURES } from './features';
import type { Logger } from '../platform/logging/logger';
import { createPool } from '../platform/db/pool';
import { SCHEMA_FOLDERS } from './schema-folders';

/**
 * Migrations (every feature's, SCHEMA_FOLDERS), then what each feature loads before serving (reference data, candle
 * files, the bootstrap admin: FeatureModule.prepare), in the feature list's order. Idempotent.
 */
export async function prepareDatabase(
  /** The config, or the part of it the features' `prepare` read (tests pass only those variables). */
  config: Readonly<Record<string, unknown>>,
  pool: Pool,
  log: Logger,
): Promise<void> {
  await migrate(pool, log, SCHEMA_FOLDERS);
  for (const feature of FEATURES) await feature.prepare?.({ pool, config, log });
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
