import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client } from 'pg';
import { loadBundledLists } from '../../src/lists/load-bundled-lists';
import { createPool } from '../../src/platform/db/pool';
import { SCHEMA_FOLDERS } from '../../src/app/schema-folders';
import { migrate } from '../../src/platform/db/migrate';
import { createLogger } from '../../src/platform/logging/logger';
import type { BenchContext } from '../lib/context';
import type { Figure } from '../lib/report';
import type { P8Measurement } from './p8-list-issue-child';

const ROOT = path.join(__dirname, '..', '..');
const ISSUE = path.join(ROOT, 'test', 'fixtures', 'ofac', 'sdn_advanced-2025-03-04.xml.bz2');
const CHILD = path.join(__dirname, 'p8-list-issue-child.ts');
const MB = 1e6;

/** Runs the measurement in its own node process (tsx as a loader) and reads its one JSON line. */
function runChild(env: Record<string, string>): Promise<P8Measurement> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d;
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d;
    });
    child.once('error', reject);
    child.once('close', (code) => {
      const line = out.trim().split('\n').pop();
      if (code !== 0 || !line) reject(new Error(`P8's child ended ${code}:\n${err.slice(-4000)}`));
      else resolve(JSON.parse(line) as P8Measurement);
    });
  });
}

/**
 * P8: the whole OFAC SDN Advanced issue of 2025-03-04 (116 MB of XML, bzip2 by the system's `bzip2`) parsed and
 * applied as a version, forced over the shipped CSV's (a diff of about 1,000 entries), on a database of its own
 * (the stack's keeps the shipped list), beside only decompressing and reading the same bytes through node.
 */
export async function measureListIssue(ctx: BenchContext): Promise<Figure[]> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set (the global setup starts Postgres)');
  const databaseName = `bench_lists_${process.pid}`;
  const admin = new Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${databaseName}`);
    const own = new URL(url);
    own.pathname = `/${databaseName}`;
    // The version to diff against: the shipped CSV, as a new deployment starts.
    const pool = createPool(own.toString(), 2);
    try {
      const log = createLogger('silent');
      await migrate(pool, log, SCHEMA_FOLDERS);
      await loadBundledLists(pool, path.join(ROOT, 'data', 'risk'), log);
    } finally {
      await pool.end();
    }
    ctx.progress('P8: the whole 2025-03-04 SDN Advanced issue parsed and applied (own process and database)');
    const m = await runChild({ P8_DATABASE_URL: own.toString(), P8_ISSUE: ISSUE });
    const readMs = (m.readMs[0] + m.readMs[1]) / 2;
    const diff = `${m.diff.added} added, ${m.diff.removed} removed, ${m.diff.changed} changed`;
    return [
      {
        id: 'P8',
        figure:
          `whole OFAC SDN Advanced issue (${(m.bytes / MB).toFixed(0)} MB XML, .bz2) parsed and applied ` +
          '÷ only decompressing and reading it through node (target ≤ 20 s)',
        value: m.wallMs / 1000,
        baseline: readMs / 1000,
        unit: 's',
        note:
          `parse ${(m.parseMs / 1000).toFixed(1)} s + apply ${(m.applyMs / 1000).toFixed(1)} s; ` +
          `${m.entries} entries, diff ${diff}`,
      },
      {
        id: 'P8',
        figure:
          'peak RSS of the loading process during parse+apply, sampled every 50 ms ÷ during the read-only pass ' +
          '(target ≤ 250 MB)',
        value: m.peakRss / MB,
        baseline: m.readPeakRss / MB,
        unit: 'MB',
        note:
          `${(m.rssBefore / MB).toFixed(0)} MB before the parse; ` +
          `the kernel's high-water mark of the whole process ${(m.maxRss / MB).toFixed(0)} MB`,
      },
    ];
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
}
