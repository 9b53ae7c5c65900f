import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Pool, PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Logger } from '../../platform/logging/logger';

/**
 * Which shipped file feeds which table (data/risk/SOURCES.md says where each file comes from). The OFAC list is
 * not here: it is loaded as a list version (src/lists), so its refreshes keep every version.
 */
export const REFERENCE_DATASETS = [
  { name: 'stablecoin_blacklist', file: 'stablecoin_blacklist.csv', table: 'ref_stablecoin_blacklist' },
  { name: 'address_labels', file: 'address_labels.csv', table: 'ref_address_labels' },
  { name: 'entities_vasp', file: 'entities_vasp.csv', table: 'ref_entities' },
  { name: 'mica_casp_register', file: 'mica_casp_register.csv', table: 'ref_mica_casps' },
  { name: 'mica_ncasp_warnings', file: 'mica_ncasp_warnings.csv', table: 'ref_mica_ncasp_warnings' },
] as const;

const LOAD_LOCK_ID = 4_210_403;

export interface DatasetLoad {
  name: string;
  rows: number;
  skipped: boolean;
}

async function sha256(file: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
}

function headerColumns(firstLine: string): string[] {
  return firstLine.split(',').map((c) => {
    const name = c.trim();
    if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected CSV column "${name}"`);
    return name;
  });
}

async function copyCsv(client: PoolClient, file: string, table: string): Promise<number> {
  const firstLine = (await readFile(file, 'utf8')).split('\n', 1)[0] ?? '';
  const columns = headerColumns(firstLine).join(', ');
  await pipeline(
    createReadStream(file),
    client.query(copyFrom(`COPY ${table} (${columns}) FROM STDIN WITH (FORMAT csv, HEADER true)`)),
  );
  const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
  return rows[0]?.n ?? 0;
}

/**
 * Loads every dataset whose file changed since the last load (by SHA-256), each one replaced
 * whole inside a transaction so analyses never see a half-loaded dataset.
 */
export async function loadReferenceData(pool: Pool, dataDir: string, log: Logger): Promise<DatasetLoad[]> {
  const client = await pool.connect();
  const results: DatasetLoad[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOAD_LOCK_ID]);
    const loaded = new Map(
      (
        await client.query<{ name: string; sha256: string; row_count: number }>(
          'SELECT name, sha256, row_count FROM reference_datasets',
        )
      ).rows.map((r) => [r.name, r]),
    );
    for (const ds of REFERENCE_DATASETS) {
      const file = path.join(dataDir, ds.file);
      const digest = await sha256(file);
      const previous = loaded.get(ds.name);
      if (previous?.sha256 === digest) {
        results.push({ name: ds.name, rows: previous.row_count, skipped: true });
        continue;
      }
      const started = Date.now();
      await client.query('BEGIN');
      try {
        await client.query(`TRUNCATE ${ds.table}`);
        const rows = await copyCsv(client, file, ds.table);
        await client.query(
          `INSERT INTO reference_datasets (name, sha256, row_count) VALUES ($1, $2, $3)
           ON CONFLICT (name) DO UPDATE SET sha256 = EXCLUDED.sha256, ` +
            `row_count = EXCLUDED.row_count, loaded_at = now()`,
          [ds.name, digest, rows],
        );
        await client.query('COMMIT');
        await client.query(`ANALYZE ${ds.table}`);
        results.push({ name: ds.name, rows, skipped: false });
        log.info('reference data loaded', { dataset: ds.name, rows, ms: Date.now() - started });
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`loading ${ds.file} failed: ${(err as Error).message}`);
      }
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [LOAD_LOCK_ID]).catch(() => undefined);
    client.release();
  }
  return results;
}
