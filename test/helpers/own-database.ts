import { Client, type Pool } from 'pg';
import { createPool } from '../../src/platform/db/pool';

export interface OwnDatabase {
  pool: Pool;
  url: string;
  drop(): Promise<void>;
}

/**
 * A database of the calling test file's own on the run's Postgres, for tests that change what every other file
 * relies on (the active list version, the freeze list): created empty, dropped with its connections at the end.
 */
export async function createOwnDatabase(name: string, poolSize = 4): Promise<OwnDatabase> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set (jest global setup starts Postgres)');
  const admin = new Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const own = new URL(url);
  own.pathname = `/${name}`;
  const pool = createPool(own.toString(), poolSize);
  return {
    pool,
    url: own.toString(),
    async drop() {
      await pool.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
