import type { Pool } from 'pg';
import type { Logger } from '../platform/logging/logger';
import type { ScreeningConfig } from './config';
import { loadReferenceData } from './reference-data/datasets';

/**
 * The reference datasets of REFERENCE_DATA_DIR into Postgres (LOAD_REFERENCE_DATA; a file loaded before is skipped).
 */
export async function prepareScreening(deps: { pool: Pool; config: Readonly<Record<string, unknown>>; log: Logger }) {
  const config = deps.config as ScreeningConfig;
  if (config.LOAD_REFERENCE_DATA) await loadReferenceData(deps.pool, config.REFERENCE_DATA_DIR, deps.log);
}
