import { randomBytes, randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { SCHEMA_FOLDERS } from '../../src/app/schema-folders';
import { functionsChecksum, migrate } from '../../src/platform/db/migrate';
import { createPool } from '../../src/platform/db/pool';
import { readFunctionFiles, readMigrationFiles } from '../../src/platform/db/schema-files';
import { createLogger, type LogFields, type Logger } from '../../src/platform/logging/logger';

/**
 * Functions and triggers live only in the features' functions files (src/<feature>/functions/NNN_*.sql,
 * src/platform/db/README.md): the live definitions are the ones written there, applying them again changes nothing,
 * nothing in the public schema is left defined only by a migration, no migration defines one of them again, and
 * migrate() applies them only when they changed. A changed migration that was already applied is refused.
 */

const log = createLogger('silent');

interface LiveFunction {
  name: string;
  signature: string;
  definition: string;
  source: string;
}

interface LiveTrigger {
  name: string;
  definition: string;
}

// Extension-owned functions (pg_trgm's) are not ours to define.
interface LogLine {
  msg: string;
  fields: LogFields | undefined;
}

/** A logger that keeps its lines, to see whether migrate() applied the functions files. */
function recordingLogger(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const record = (msg: string, fields?: LogFields) => lines.push({ msg, fields });
  const logger: Logger & { lines: LogLine[] } = {
    debug: record,
    info: record,
    warn: record,
    error: record,
    child: () => logger,
    level: 'debug',
    lines,
  };
  return logger;
}

const recordedFunctions = 'SELECT checksum, applied_at FROM schema_functions';
const recordedMigrations = 'SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY 1';

const functionFiles = () => readFunctionFiles(SCHEMA_FOLDERS);

async function currentChecksum(): Promise<string> {
  return functionsChecksum(await functionFiles());
}

/** The functions files' names, in the order migrate() applies them. */
async function functionFileNames(): Promise<string[]> {
  return (await functionFiles()).map((f) => f.name);
}

async function liveFunctions(pool: Pool): Promise<LiveFunction[]> {
  const { rows } = await pool.query<LiveFunction>(`
    SELECT p.proname AS name, p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' AS signature,
           pg_get_functiondef(p.oid) AS definition, p.prosrc AS source
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname = 'public'
      AND NOT EXISTS (
        SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
    ORDER BY 2`);
  return rows;
}

async function liveTriggers(pool: Pool): Promise<LiveTrigger[]> {
  const { rows } = await pool.query<LiveTrigger>(`
    SELECT t.tgname AS name, pg_get_triggerdef(t.oid) || ' enabled=' || t.tgenabled::text AS definition
    FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND NOT t.tgisinternal
    ORDER BY 1, 2`);
  return rows;
}

async function snapshot(pool: Pool): Promise<{ functions: LiveFunction[]; triggers: LiveTrigger[] }> {
  return { functions: await liveFunctions(pool), triggers: await liveTriggers(pool) };
}

/** Pretends the function was changed by hand (or left older by a migration): its live body differs from the file's. */
async function changeByHand(pool: Pool, fn: string): Promise<void> {
  const { rows } = await pool.query<{ def: string }>(`SELECT pg_get_functiondef($1::regproc) AS def`, [fn]);
  const def = rows[0]?.def ?? '';
  expect(def).toContain('$function$');
  await pool.query(def.replace('$function$', '$function$\n-- changed by hand'));
}

/** What the functions files declare: one entry per CREATE statement, so an overload counts twice. */
async function declared(): Promise<{ text: string; functions: string[]; triggers: string[] }> {
  const text = (await functionFiles()).map((f) => f.sql).join('\n');
  const names = (re: RegExp) => [...text.matchAll(re)].map((m) => m[1] as string).sort();
  return {
    text,
    functions: names(/^CREATE OR REPLACE FUNCTION (\w+)\s*\(/gim),
    triggers: names(/^CREATE OR REPLACE TRIGGER (\w+)\s/gim),
  };
}

describe('SQL functions and triggers from the functions files of every feature', () => {
  const databaseName = `sql_functions_${randomUUID().replace(/-/g, '')}`;
  let admin: Pool;
  let pool: Pool;
  let firstRun: number[];

  // A database of its own: the test reapplies functions and migrations, which must not race other test files.
  beforeAll(async () => {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DATABASE_URL is not set (jest global setup starts Postgres)');
    admin = createPool(url, 1);
    await admin.query(`CREATE DATABASE ${databaseName}`);
    const own = new URL(url);
    own.pathname = `/${databaseName}`;
    pool = createPool(own.toString(), 2);
    firstRun = await migrate(pool, log, SCHEMA_FOLDERS);
  });
  afterAll(async () => {
    await pool?.end();
    await admin?.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await admin?.end();
  });

  test('the files only replace: every function and trigger is CREATE OR REPLACE', async () => {
    const { text } = await declared();
    expect(text).not.toMatch(/^\s*CREATE\s+(FUNCTION|TRIGGER)\b/im);
    expect(text).not.toMatch(/^\s*DROP\s/im);
  });

  test('every live function runs the body in the functions files, and reapplying them changes nothing', async () => {
    const { text } = await declared();
    const before = await snapshot(pool);
    // prosrc is exactly the text between the dollar quotes of the CREATE that made the function.
    const notFromFiles = before.functions.filter((fn) => !text.includes(`$$${fn.source}$$`)).map((fn) => fn.signature);
    expect(notFromFiles).toEqual([]);
    expect(before.functions.length).toBeGreaterThan(0);

    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      for (const file of await functionFiles()) await client.query(file.sql);
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    expect(await snapshot(pool)).toEqual(before);
  });

  test('running migrate() again applies nothing and changes no function or trigger', async () => {
    expect(firstRun).toEqual(Array.from({ length: firstRun.length }, (_, i) => i + 1));
    expect(firstRun.length).toBeGreaterThanOrEqual(16);
    const recorded = 'SELECT version, checksum, applied_at FROM schema_migrations ORDER BY 1';
    const migrationsBefore = (await pool.query(recorded)).rows;
    const before = await snapshot(pool);

    expect(await migrate(pool, log, SCHEMA_FOLDERS)).toEqual([]);
    expect(await migrate(pool, log, SCHEMA_FOLDERS)).toEqual([]);

    expect(await snapshot(pool)).toEqual(before);
    expect((await pool.query(recorded)).rows).toEqual(migrationsBefore);
  });

  test('every function and trigger in the public schema is defined in a functions file, and nothing more', async () => {
    const files = await declared();
    const live = await snapshot(pool);

    // Same multiset of names: an overload left behind by a migration would be one function too many.
    expect(live.functions.map((f) => f.name).sort()).toEqual(files.functions);
    expect(live.triggers.map((t) => t.name).sort()).toEqual(files.triggers);
    expect(files.functions).toEqual(
      expect.arrayContaining(['grant_credits', 'reserve_credits', 'consume_credits', 'realtime_notify']),
    );
  });

  test('the first migrate() recorded the checksum of the functions files', async () => {
    const { rows } = await pool.query(recordedFunctions);
    expect(rows).toEqual([{ checksum: await currentChecksum(), applied_at: expect.any(Date) }]);
  });

  test('an up-to-date database gets no functions file; a changed checksum forces a re-apply', async () => {
    const original = await snapshot(pool);
    // A function changed by hand: only a re-apply of the files puts the written body back.
    await changeByHand(pool, 'realtime_notify');
    const handChanged = await snapshot(pool);
    expect(handChanged).not.toEqual(original);
    const recordedBefore = (await pool.query(recordedFunctions)).rows;

    const unchangedRun = recordingLogger();
    expect(await migrate(pool, unchangedRun, SCHEMA_FOLDERS)).toEqual([]);
    expect(unchangedRun.lines.map((l) => l.msg)).toEqual(['sql functions unchanged']);
    expect((await pool.query(recordedFunctions)).rows).toEqual(recordedBefore);
    expect(await snapshot(pool)).toEqual(handChanged);

    await pool.query(`UPDATE schema_functions SET checksum = 'stale'`);
    const staleRun = recordingLogger();
    expect(await migrate(pool, staleRun, SCHEMA_FOLDERS)).toEqual([]);
    expect(staleRun.lines).toEqual([
      {
        msg: 'sql functions applied',
        fields: { files: await functionFileNames(), checksum: await currentChecksum(), reason: 'files changed' },
      },
    ]);
    const recordedAfter = (await pool.query(recordedFunctions)).rows;
    expect(recordedAfter).toEqual([{ checksum: await currentChecksum(), applied_at: expect.any(Date) }]);
    expect(recordedAfter[0].applied_at.getTime()).toBeGreaterThan(recordedBefore[0].applied_at.getTime());
    expect(await snapshot(pool)).toEqual(original);
  });

  test('DELETE FROM schema_functions forces a re-apply', async () => {
    await pool.query('DELETE FROM schema_functions');
    const run = recordingLogger();
    expect(await migrate(pool, run, SCHEMA_FOLDERS)).toEqual([]);
    expect(run.lines.map((l) => [l.msg, l.fields?.reason])).toEqual([['sql functions applied', 'not recorded']]);
    expect((await pool.query(recordedFunctions)).rows).toEqual([
      { checksum: await currentChecksum(), applied_at: expect.any(Date) },
    ]);
  });

  test('no migration defines a function or trigger that a functions file defines', async () => {
    const files = await declared();
    const defined = new Set([...files.functions, ...files.triggers]);
    const createdAgain: string[] = [];
    for (const { name, sql } of await readMigrationFiles(SCHEMA_FOLDERS)) {
      for (const m of sql.matchAll(/CREATE\s+(?:OR\s+REPLACE\s+)?(?:FUNCTION|TRIGGER)\s+(\w+)/gi)) {
        if (defined.has(m[1] as string)) createdAgain.push(`${name}: ${m[1]}`);
      }
    }
    expect(createdAgain).toEqual([]);
  });

  test('a changed checksum of an applied migration is refused, and no functions file runs', async () => {
    const migrationsBefore = (await pool.query(recordedMigrations)).rows;
    const functionsBefore = (await pool.query(recordedFunctions)).rows;
    const setChecksum = (version: number, checksum: string) =>
      pool.query('UPDATE schema_migrations SET checksum = $1 WHERE version = $2', [checksum, version]);
    try {
      await setChecksum(16, randomBytes(32).toString('hex'));
      await expect(migrate(pool, log, SCHEMA_FOLDERS)).rejects.toThrow(
        'migration 016_job_http_request_id.sql was changed after it was applied',
      );
      expect((await pool.query(recordedFunctions)).rows).toEqual(functionsBefore);
    } finally {
      for (const row of migrationsBefore as { version: number; checksum: string }[]) {
        await setChecksum(row.version, row.checksum);
      }
    }
    expect((await pool.query(recordedMigrations)).rows).toEqual(migrationsBefore);
  });
});
