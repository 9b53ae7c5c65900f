import type { Pool } from 'pg';
import type { Logger } from '../platform/logging/logger';
import type { ScreeningConfig } from '../screening';
import { loadBundledLists } from './load-bundled-lists';

/** The sanctions list issues shipped beside the reference data, loaded with it (LOAD_REFERENCE_DATA). */
export async function prepareLists(deps: { pool: Pool; config: Readonly<Record<string, unknown>>; log: Logger }) {
  const config = deps.config as ScreeningConfig;
  if (config.LOAD_REFERENCE_DATA) await loadBundledLists(deps.pool, config.REFERENCE_DATA_DIR, deps.log);
}
