/**
 * The database schema at start, from the folders the caller passes (schema-files.ts; the composition root collects
 * them from the features): the numbered migrations, each once, then the SQL functions and triggers (the functions
 * files), only when they changed. Re-running the functions files at every start would take locks on busy tables
 * (CREATE OR REPLACE TRIGGER on credit_transactions, users, ...) that can stall a start behind a long transaction or
 * deadlock with live ones. So the sha256 of the files (names and text, in their global name order) is kept in the
 * one-row table schema_functions, and the files are applied when it differs, when there is no row, or when a
 * migration was applied in this run (it may have dropped or replaced a function). A file's folder is not hashed: a
 * file moved to another feature unchanged is the same file. Consequence: a function changed by hand in the database
 * is not repaired until the files change; `DELETE FROM schema_functions` forces a re-apply at the next start.
 * Migrations hold tables and data only (README.md here).
 */
import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import type { Logger } from '../logging/logger';
import {
  type MigrationFile,
  readFunctionFiles,
  readMigrationFiles,
  type SchemaFolders,
  type SqlFile,
} from './schema-files';

// Any constant works; it only has to be the same in every process that migrates.
const MIGRATION_LOCK_ID = 4_210_402;

/** Applies the migrations not recorded yet (up to `upTo`); returns their versions. */
async function applyMigrations(
  client: PoolClient,
  log: Logger,
  migrations: readonly MigrationFile[],
  upTo?: number,
): Promise<number[]> {
  const applied: number[] = [];
  await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY, name text NOT NULL, checksum text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now())`);
  const recordedRows = await client.query<{ version: number; checksum: string }>(
    'SELECT version, checksum FROM schema_migrations',
  );
  const done = new Map<number, string>(recordedRows.rows.map((r) => [r.version, r.checksum]));
  for (const m of migrations) {
    if (upTo !== undefined && m.version > upTo) break;
    const recorded = done.get(m.version);
    if (recorded !== undefined) {
      if (recorded === m.checksum) continue;
      throw new Error(`migration ${m.name} was changed after it was applied`);
    }
    await client.query('BEGIN');
    try {
      await client.query(m.sql);
      await client.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        m.version,
        m.name,
        m.checksum,
      ]);
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK');
      throw new Error(`migration ${m.name} failed: ${(err as Error).message}`);
    }
    applied.push(m.version);
    log.info('migration applied', { migration: m.name });
  }
  return applied;
}

/** sha256 over each file's name and text, in the order given: an edited, renamed or reordered file changes it. */
export function functionsChecksum(files: readonly { name: string; sql: string }[]): string {
  const hash = createHash('sha256');
  // NUL as separator: Postgres refuses it in SQL text, so two different lists of files cannot hash the same input.
  for (const f of files) hash.update(`${f.name}\0${f.sql}\0`);
  return hash.digest('hex');
}

/**
 * Every functions file, in one transaction with the recorded checksum: the functions and triggers change together
 * or not at all, and the checksum says what was applied. Skipped when the recorded checksum is the files' and no
 * migration was applied in this start (see the header comment).
 */
async function applyFunctions(
  client: PoolClient,
  log: Logger,
  files: readonly SqlFile[],
  migrationsApplied: readonly number[],
): Promise<void> {
  await client.query(`CREATE TABLE IF NOT EXISTS schema_functions (
    id boolean PRIMARY KEY DEFAULT true CHECK (id), checksum text NOT NULL, applied_at timestamptz NOT NULL)`);
  const checksum = functionsChecksum(files);
  const recorded = (await client.query<{ checksum: string }>('SELECT checksum FROM schema_functions')).rows[0];
  const forcedBy = migrationsApplied.length > 0 ? 'migrations applied' : '';
  if (recorded?.checksum === checksum && !forcedBy) {
    log.debug('sql functions unchanged', { checksum });
    return;
  }
  await client.query('BEGIN');
  try {
    for (const f of files) {
      try {
        await client.query(f.sql);
      } catch (err) {
        throw new Error(`functions file ${f.path} failed: ${(err as Error).message}`);
      }
    }
    await client.query(
      `INSERT INTO schema_functions (checksum, applied_at) VALUES ($1, now())
       ON CONFLICT (id) DO UPDATE SET checksum = EXCLUDED.checksum, applied_at = EXCLUDED.applied_at`,
      [checksum],
    );
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  }
  const reason = !recorded ? 'not recorded' : recorded.checksum !== checksum ? 'files changed' : forcedBy;
  log.info('sql functions applied', { files: files.map((f) => f.name), checksum, reason });
}

/**
 * Applies the numbered migrations of every folder in global name order, each in its own transaction, and records
 * them; then the functions files when they changed (header comment). Returns the versions applied in this run.
 * Both lists are read and checked (schema-files.ts: no number used twice) before the database is touched. An
 * advisory lock lets api and worker start together without racing; an edited, already applied migration is refused,
 * because the database would silently differ from the code.
 *
 * `upTo` (tests only) stops after that version and applies no functions files: those are written for the latest
 * schema (a trigger on a table a later migration creates), so a database shaped as an older release left it is made
 * of its migrations alone. A later migrate() without `upTo` applies the rest and then the files.
 */
export async function migrate(
  pool: Pool,
  log: Logger,
  folders: readonly SchemaFolders[],
  options: { upTo?: number } = {},
): Promise<number[]> {
  const [migrations, functions] = await Promise.all([readMigrationFiles(folders), readFunctionFiles(folders)]);
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    const applied = await applyMigrations(client, log, migrations, options.upTo);
    if (options.upTo === undefined) await applyFunctions(client, log, functions, applied);
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    client.release();
  }
}
