/**
 * The database schema at start: the numbered migrations (migrations/*.sql), each once, then the SQL functions and
 * triggers (functions/*.sql), only when they changed. Re-running the functions files at every start would take
 * locks on busy tables (CREATE OR REPLACE TRIGGER on credit_transactions, users, ...) that can stall a start behind
 * a long transaction or deadlock with live ones. So the sha256 of the files (names and text, in FUNCTION_FILES
 * order) is kept in the one-row table schema_functions, and the files are applied when it differs, when there is
 * no row, or when a migration was applied in this run (it may have dropped or replaced a function). Consequence: a
 * function changed by hand in the database is not repaired until the files change; `DELETE FROM
 * schema_functions` forces a re-apply at the next start.
 * Migrations hold tables and data only; six of them once defined functions too and were rewritten without them
 * (REWRITTEN_MIGRATIONS): a database that recorded one's previous text is accepted once, and gets the files again.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Pool, PoolClient } from 'pg';
import type { Logger } from '../logging/logger';

const MIGRATIONS_DIR = path.join(__dirname, 'migrations');
const FUNCTIONS_DIR = path.join(__dirname, 'functions');
// Any constant works; it only has to be the same in every process that migrates.
const MIGRATION_LOCK_ID = 4_210_402;

/**
 * The SQL functions and triggers (functions/README.md), applied in this order after the migrations.
 * Listed rather than globbed so the order is a decision; a file in the folder but not here is refused.
 */
export const FUNCTION_FILES = [
  'credits.sql',
  'outbox.sql',
  'activity-owner.sql',
  'job-status-events.sql',
  'api-key-revocation-events.sql',
  'credential-change-events.sql',
  'monitor-alerts.sql',
  'batches.sql',
  'risk-policies.sql',
  'teams.sql',
  'cases.sql',
] as const;

/**
 * Applied migrations rewritten since, by file name, with the sha256 of their previous text. 002, 007, 008, 013,
 * 014 and 015 also defined functions and triggers (older copies of those in functions/); they were cut down to
 * their tables and data changes, and the definitions live only in functions/. A database that recorded one of
 * these checksums ran the previous text, whose effect on tables is the same: it is accepted, its recorded
 * checksum becomes the new text's, and the functions files run again in that start, so what the database runs
 * is what functions/ says. Any other mismatch is still refused. Only a rewrite that leaves every table, column,
 * index and constraint as the previous text made them may be listed here.
 */
export const REWRITTEN_MIGRATIONS: ReadonlyMap<string, string> = new Map([
  ['002_credits.sql', 'd5087b9efb1528092e5ce6a4c9f93a7e5e9def131e8c410b833c312c0c122396'],
  ['007_realtime_outbox.sql', 'c7d4b2e6c6e5e012ff30b476ce12ac8f174d3ca38c7b5b840e93afecc7ea996e'],
  ['008_activity_owner.sql', '6bbff780862d88d5e3120754274da2a19b6daa9791ca93b83b828ebba2a2da1b'],
  ['013_job_status_events.sql', 'cb68859ea58cb3970e4f4eaf4ab4da27e7aef033e98ae1309771f437898f9448'],
  ['014_api_key_revocation_events.sql', 'e955be60c865a200800b7e687dd4773fb222ebdfa970ea52de6bc7d0bcee7726'],
  ['015_payments_refunds_debt.sql', '521d016f5690817354b514c6af84b1c007397d9485bf2dcc2c967fffe78175e2'],
]);

interface MigrationFile {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

/** What applyMigrations did: the versions it applied, and the rewritten migrations whose previous text it found. */
interface MigrationsRun {
  applied: number[];
  rewritten: MigrationFile[];
}

async function readMigrations(): Promise<MigrationFile[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{3}_.+\.sql$/.test(f)).sort();
  return Promise.all(
    files.map(async (file) => {
      const sql = await readFile(path.join(MIGRATIONS_DIR, file), 'utf8');
      return {
        version: Number(file.slice(0, 3)),
        name: file,
        sql,
        checksum: createHash('sha256').update(sql).digest('hex'),
      };
    }),
  );
}

/** The functions files' text in FUNCTION_FILES order, refusing a .sql file there that the list does not name. */
export async function readFunctionFiles(): Promise<{ name: string; sql: string }[]> {
  const unlisted = (await readdir(FUNCTIONS_DIR)).filter(
    (f) => f.endsWith('.sql') && !(FUNCTION_FILES as readonly string[]).includes(f),
  );
  if (unlisted.length > 0) throw new Error(`functions files not listed in FUNCTION_FILES: ${unlisted.join(', ')}`);
  return Promise.all(
    FUNCTION_FILES.map(async (name) => ({ name, sql: await readFile(path.join(FUNCTIONS_DIR, name), 'utf8') })),
  );
}

async function applyMigrations(client: PoolClient, log: Logger, upTo?: number): Promise<MigrationsRun> {
  const applied: number[] = [];
  const rewritten: MigrationFile[] = [];
  await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY, name text NOT NULL, checksum text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now())`);
  const recordedRows = await client.query<{ version: number; checksum: string }>(
    'SELECT version, checksum FROM schema_migrations',
  );
  const done = new Map<number, string>(recordedRows.rows.map((r) => [r.version, r.checksum]));
  for (const m of await readMigrations()) {
    if (upTo !== undefined && m.version > upTo) break;
    const recorded = done.get(m.version);
    if (recorded !== undefined) {
      if (recorded === m.checksum) continue;
      if (REWRITTEN_MIGRATIONS.get(m.name) !== recorded) {
        throw new Error(`migration ${m.name} was changed after it was applied`);
      }
      // Its new checksum is recorded with the functions files, in their transaction (applyFunctions).
      rewritten.push(m);
      continue;
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
  return { applied, rewritten };
}

/** sha256 over each file's name and text, in FUNCTION_FILES order: an edited, renamed or reordered file changes it. */
export function functionsChecksum(files: readonly { name: string; sql: string }[]): string {
  const hash = createHash('sha256');
  // NUL as separator: Postgres refuses it in SQL text, so two different lists of files cannot hash the same input.
  for (const f of files) hash.update(`${f.name}\0${f.sql}\0`);
  return hash.digest('hex');
}

/**
 * Every functions file, in one transaction with the recorded checksum: the functions and triggers change together
 * or not at all, and the checksum says what was applied. Skipped when the recorded checksum is the files' and no
 * migration ran or was found rewritten in this start (see the header comment). A rewritten migration's new
 * checksum is recorded in the same transaction: if the files fail, the next start finds the previous checksum
 * again and applies them again.
 */
async function applyFunctions(client: PoolClient, log: Logger, migrations: MigrationsRun): Promise<void> {
  await client.query(`CREATE TABLE IF NOT EXISTS schema_functions (
    id boolean PRIMARY KEY DEFAULT true CHECK (id), checksum text NOT NULL, applied_at timestamptz NOT NULL)`);
  const files = await readFunctionFiles();
  const checksum = functionsChecksum(files);
  const recorded = (await client.query<{ checksum: string }>('SELECT checksum FROM schema_functions')).rows[0];
  const { applied, rewritten } = migrations;
  const forcedBy = applied.length > 0 ? 'migrations applied' : rewritten.length > 0 ? 'migrations rewritten' : '';
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
        throw new Error(`functions file ${f.name} failed: ${(err as Error).message}`);
      }
    }
    for (const m of rewritten) {
      await client.query('UPDATE schema_migrations SET checksum = $1 WHERE version = $2', [m.checksum, m.version]);
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
  if (rewritten.length > 0) {
    log.info('rewritten migrations accepted: their previous checksum was replaced by the current one', {
      migrations: rewritten.map((m) => m.name),
    });
  }
  const reason = !recorded ? 'not recorded' : recorded.checksum !== checksum ? 'files changed' : forcedBy;
  log.info('sql functions applied', { files: files.map((f) => f.name), checksum, reason });
}

/**
 * Applies the numbered SQL files in order, each in its own transaction, and records them; then the functions files
 * (functions/*.sql) when they changed (header comment). Returns the versions of the migrations applied in this run.
 * An advisory lock lets api and worker start together without racing; an edited, already applied
 * migration is refused, because the database would silently differ from the code (unless REWRITTEN_MIGRATIONS
 * lists the checksum it recorded).
 *
 * `upTo` (tests only) stops after that version and applies no functions files: those are written for the latest
 * schema (a trigger on a table a later migration creates), so a database shaped as an older release left it is made
 * of its migrations alone. A later migrate() without `upTo` applies the rest and then the files.
 */
export async function migrate(pool: Pool, log: Logger, options: { upTo?: number } = {}): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    const migrations = await applyMigrations(client, log, options.upTo);
    if (options.upTo === undefined) await applyFunctions(client, log, migrations);
    return migrations.applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
    client.release();
  }
}
