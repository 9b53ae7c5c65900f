import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync, gzipSync } from 'node:zlib';
import { createPool } from '../../src/platform/db/pool';

/** `npm run market:ingest` as an operator runs it: a new file in, served rollups out, loaded once. */
const run = promisify(execFile);
const pool = createPool(process.env.TEST_DATABASE_URL as string, 2);
afterAll(() => pool.end());

async function ingest(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(path.resolve('node_modules/.bin/tsx'), ['src/market-ingest.ts', ...args], {
      env: { ...process.env, DATABASE_URL: process.env.TEST_DATABASE_URL, LOG_LEVEL: 'silent', NODE_ENV: 'test' },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const ARGS = [
  '--symbol',
  'ZALGO-USDT',
  '--interval',
  '1m',
  '--format',
  'binance-kline',
  '--connector',
  'binance-futures',
  '--exchange-symbol',
  'ALGOUSDT',
  '--market',
  'usdm-futures',
];

test('a new Binance kline file is loaded with its rollups, exactly like the shipped copy of the ' +
  'same minutes, and only once', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ingest-'));
  const lines = gunzipSync(await readFile('data/market/binance_futures_um/1m/ALGO-USDT.csv.gz'))
    .toString('utf8')
    .split('\n');
  // The header and the first two days (2024-09-01 and 09-02), as a new file.
  const file = path.join(dir, 'ALGOUSDT-1m-2024-09-01.csv.gz');
  await writeFile(file, gzipSync(lines.slice(0, 1 + 2880).join('\n')));

  const first = await ingest([file, ...ARGS]);
  expect(first).toMatchObject({ code: 0 });
  expect(first.stdout).toContain('loaded  ZALGO-USDT 1m  2880 candles');

  const days = await pool.query(
    `SELECT a.ts, a.open = b.open AND a.high = b.high AND a.low = b.low AND a.close = b.close ` +
      `AND a.volume = b.volume AND a.trades = b.trades AS same
     FROM market_candles a JOIN market_candles b ON b.symbol = 'ALGO-USDT' AND b.interval = a.interval AND b.ts = a.ts
     WHERE a.symbol = 'ZALGO-USDT' AND a.interval = '1d' ORDER BY a.ts`,
  );
  expect(days.rows).toEqual([
    { ts: new Date('2024-09-01T00:00:00Z'), same: true },
    { ts: new Date('2024-09-02T00:00:00Z'), same: true },
  ]);
  const again = await ingest([file, ...ARGS]);
  expect(again.stdout).toContain('already loaded  ZALGO-USDT 1m  2880 candles');
}, 120_000);

test('a broken file is refused whole, naming the line; missing arguments are a usage error', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'ingest-'));
  const file = path.join(dir, 'broken.csv');
  await writeFile(
    file,
    ['1725148800000,1,1,1,1,1,1725148859999,1,1,1,1,0', '1725148830000,1,1,1,1,1,1725148889999,1,1,1,1,0'].join('\n'),
  );
  const broken = await ingest([file, ...ARGS.map((a) => (a === 'ZALGO-USDT' ? 'ZBROKEN-USDT' : a))]);
  expect(broken.code).toBe(1);
  expect(broken.stderr).toMatch(/line 2: open 2024-09-01T00:00:30.000Z is not on the 1m grid/);
  expect(
    (await pool.query(`SELECT count(*)::int AS n FROM market_candles WHERE symbol = 'ZBROKEN-USDT'`)).rows[0].n,
  ).toBe(0);

  const usage = await ingest([file, '--symbol', 'ZBROKEN-USDT']);
  expect(usage.code).toBe(64);
  expect(usage.stderr).toContain('usage: npm run market:ingest');
}, 120_000);
