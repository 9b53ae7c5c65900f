import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { createPool } from '../../src/platform/db/pool';
import { FUNCTION_FILES, functionsChecksum, migrate, readFunctionFiles } from '../../src/platform/db/migrate';
import { createLogger, type LogFields, type Logger } from '../../src/platform/logging/logger';

/**
 * Functions and triggers live only in src/platform/db/functions/*.sql (its README.md): the live
 * definitions are the ones written there, applying them again changes nothing, nothing in the
 * public schema is left defined only by a migration, and migrate() applies them only when they changed.
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

async function currentChecksum(): Promise<string> {
  return functionsChecksum(await readFunctionFiles());
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

/** What the functions files declare: one entry per CREATE statement, so an overload counts twice. */
async function declared(): Promise<{ text: string; functions: string[]; triggers: string[] }> {
  const text = (await readFunctionFiles()).map((f) => f.sql).join('\n');
  const names = (re: RegExp) => [...text.matchAll(re)].map((m) => m[1] as string).sort();
  return {
    text,
    functions: names(/^CREATE OR REPLACE FUNCTION (\w+)\s*\(/gim),
    triggers: names(/^CREATE OR REPLACE TRIGGER (\w+)\s/gim),
  };
}

describe('SQL functions and triggers from src/platform/db/functions', () => {
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
    firstRun = await migrate(pool, log);
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
      for (const file of await readFunctionFiles()) await client.query(file.sql);
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

    expect(await migrate(pool, log)).toEqual([]);
    expect(await migrate(pool, log)).toEqual([]);

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
    const { rows } = await pool.query<{ def: string }>(`SELECT pg_get_functiondef('realtime_notify'::regproc) AS def`);
    const def = rows[0]?.def ?? '';
    expect(def).toContain('$function$');
    await pool.query(def.replace('$function$', '$function$\n-- changed by hand'));
    const handChanged = await snapshot(pool);
    expect(handChanged).not.toEqual(original);
    const recordedBefore = (await pool.query(recordedFunctions)).rows;

    const unchangedRun = recordingLogger();
    expect(await migrate(pool, unchangedRun)).toEqual([]);
    expect(unchangedRun.lines.map((l) => l.msg)).toEqual(['sql functions unchanged']);
    expect((await pool.query(recordedFunctions)).rows).toEqual(recordedBefore);
    expect(await snapshot(pool)).toEqual(handChanged);

    await pool.query(`UPDATE schema_functions SET checksum = 'stale'`);
    const staleRun = recordingLogger();
    expect(await migrate(pool, staleRun)).toEqual([]);
    expect(staleRun.lines).toEqual([
      {
        msg: 'sql functions applied',
        fields: { files: [...FUNCTION_FILES], checksum: await currentChecksum(), reason: 'files changed' },
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
    expect(await migrate(pool, run)).toEqual([]);
    expect(run.lines.map((l) => [l.msg, l.fields?.reason])).toEqual([['sql functions applied', 'not recorded']]);
    expect((await pool.query(recordedFunctions)).rows).toEqual([
      { checksum: await currentChecksum(), applied_at: expect.any(Date) },
    ]);
  });
});
